// The site's modules name their content (issue 24, the widget's reload on another origin).
// scripts/site rewrites each relative import between the site's modules, and each module
// <script src> of its pages, to carry ?v= and the first 16 hex digits of the imported file's
// SHA-256, as written. scripts/serve.mjs caches such a URL for good when the digits match, so a
// reload revalidates the page and the entry the embedder named (bahdanau-widget.js) and takes
// every module below them from the browser's cache, instead of a chain of 304s, one level of
// the import graph per round trip (eight of them, 1.5 s on Slow 4G).
//
// A module's hash covers the versions it names, so a change anywhere gives new URLs up to the
// entry: old and new modules never mix. That needs the graph to have no cycle, so a cycle is an
// error here, naming it. Every reference to a module gets the same URL (a module imported by
// two URLs would run twice), which is why the pages' own <script src> are rewritten too.
// Imports that name no site module (a bare name, node:..., a URL built at run time, such as the
// engine's glue) are left as they are.
//
// Found with regular expressions, not a parser: an import or export at the start of a line
// with a string after `from`, a bare `import '...'`, and import('...') with a literal string.
// The project's modules write their imports so; tests/node/versioned-imports.test.mjs checks
// the site that scripts/site writes against a module graph read from the files.
import { createHash } from 'node:crypto';
import path from 'node:path';

const MODULE = /\.m?js$/;
const RELATIVE = /^\.{1,2}\/[^?#]*$/; // what a module's import names relative to itself
const PAGE_RELATIVE = /^(?![a-z][a-z0-9+.-]*:)[^/?#][^?#]*$/i; // a page's src="app.js" too
const PATTERNS = [
  /^([ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*)(['"])([^'"\n]+)\2/gm,
  /^([ \t]*import\s*)(['"])([^'"\n]+)\2/gm,
  /(\bimport\(\s*)(['"])([^'"\n]+)\2(?=\s*\))/g,
];
const SCRIPT_TAG = /<script\b[^>]*>/gi;
const MODULE_TYPE = /\btype\s*=\s*(["']?)module\1(?=[\s>/])/i;
const SRC = /(\bsrc\s*=\s*)(?:(["'])([^"']+)\2|([^\s"'=<>`]+))/i; // quoted or not

export const HASH_DIGITS = 16;

// The site path that spec, written in the file at rel, names; null if it names no module there.
function target(rel, spec, texts, relative = RELATIVE) {
  if (!relative.test(spec) || !MODULE.test(spec)) return null;
  const to = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
  return texts.has(to) && MODULE.test(to) ? to : null;
}

// -> [{start, end, to}]: where in text (the file at rel) a module of the site is named.
export function references(rel, text, texts) {
  const found = [];
  if (rel.endsWith('.html')) {
    for (const tag of text.matchAll(SCRIPT_TAG)) {
      if (!MODULE_TYPE.test(tag[0])) continue;
      const src = SRC.exec(tag[0]);
      const spec = src && (src[3] ?? src[4]);
      const to = spec && target(rel, spec, texts, PAGE_RELATIVE);
      if (!to) continue;
      const start = tag.index + src.index + src[1].length + (src[2]?.length ?? 0);
      found.push({ start, end: start + spec.length, to });
    }
  } else if (MODULE.test(rel)) {
    for (const re of PATTERNS) {
      for (const m of text.matchAll(re)) {
        const to = target(rel, m[3], texts);
        if (!to) continue;
        const start = m.index + m[1].length + 1;
        found.push({ start, end: start + m[3].length, to });
      }
    }
  }
  const seen = new Set(); // never two rewrites at one place: they would garble the text
  return found.sort((a, b) => a.start - b.start).filter((r) => !seen.has(r.start) && seen.add(r.start));
}

export const digest = (text) => createHash('sha256').update(text).digest('hex');

// texts: Map site path -> text (the site's .js, .mjs and .html files). -> Map site path ->
// rewritten text, for the files that name a module of the site. Throws on an import cycle.
export function versionImports(texts) {
  const done = new Map(); // rel -> its final text
  const visiting = [];
  const finalText = (rel) => {
    if (done.has(rel)) return done.get(rel);
    if (visiting.includes(rel)) {
      const cycle = [...visiting.slice(visiting.indexOf(rel)), rel].join(' -> ');
      throw new Error(`scripts/site: the modules import each other in a cycle (${cycle}); their ?v= hashes would depend on themselves`);
    }
    visiting.push(rel);
    const text = texts.get(rel);
    let out = '';
    let at = 0;
    for (const r of references(rel, text, texts)) {
      const spec = text.slice(r.start, r.end);
      out += `${text.slice(at, r.start)}${spec}?v=${digest(finalText(r.to)).slice(0, HASH_DIGITS)}`;
      at = r.end;
    }
    out += text.slice(at);
    visiting.pop();
    done.set(rel, out);
    return out;
  };
  const changed = new Map();
  for (const rel of [...texts.keys()].sort()) {
    const out = finalText(rel);
    if (out !== texts.get(rel)) changed.set(rel, out);
  }
  return changed;
}
