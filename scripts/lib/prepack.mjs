// npm pack / npm publish: the package ships the built wasm engine (web/dist, not in git), so
// build it first if it is missing; a package without it would fail on its user's first call.
import { ensureBuilt } from './engines.mjs';

ensureBuilt('wasm-simd'); // both variants: ensureBuilt checks and builds the four files
