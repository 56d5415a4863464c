// npm pack / npm publish: the package ships the built wasm engine (web/dist, not in git), so
// build it first if it is missing; a package without it would fail on its user's first call.
//
// It also ships the models the widget needs by name, at web/models/: the widget resolves
// models/NAME.safetensors against its own URL, and in the page's URL space (scripts/serve.mjs,
// scripts/site) web/ is the top with models/ beside it. So in the package, as a CDN serves it,
// the models must lie in web/models/. They are copied there from models/ (web/models/ is a
// build output, like web/dist, and not in git); web/lib resolves a name in Node against
// models/ in a clone and web/models/ in an installed package.
import { copyFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

import { PACKAGED_MODELS } from '../../web/lib/catalogue.js';
import { ROOT, ensureBuilt } from './engines.mjs';

ensureBuilt('wasm-simd'); // both variants: ensureBuilt checks and builds the four files

const out = path.join(ROOT, 'web', 'models');
mkdirSync(out, { recursive: true });
for (const name of [...PACKAGED_MODELS.map((m) => `${m}.safetensors`), 'README.md']) {
  const from = path.join(ROOT, 'models', name);
  const to = path.join(out, name);
  const src = statSync(from); // a missing model fails the pack, as it should
  let dst = null;
  try {
    dst = statSync(to);
  } catch {}
  if (dst && dst.size === src.size && dst.mtimeMs >= src.mtimeMs) continue;
  // Copied beside it and renamed: two packs at once (node --test runs files in parallel) each
  // see a whole file.
  const tmp = `${to}.${process.pid}.tmp`;
  copyFileSync(from, tmp);
  renameSync(tmp, to);
}
