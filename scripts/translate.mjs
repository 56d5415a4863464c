#!/usr/bin/env node
// The command line translator for every engine: scripts/translate, or `npx bahdanau-live`.
//
//   scripts/translate [--engine wasm-simd|wasm-scalar|native] [--model FILE] [--beam K]
//                     [--max-len N] [--json] [--heatmap] [TEXT...]
//   scripts/translate --force "Le chat noir dort." "The black cat is sleeping."
//   scripts/translate --attend 2=cat --json "The black cat is sleeping."
//
// Same flags and output as the native CLI (src/cli/main.cpp): one output line per input line,
// `--json` lines with the native keys and number format, errors on stderr, exit status 1 for
// runtime errors and 2 for usage errors, an empty line (or {}) for a line that fails.
// The wasm engines run through web/lib, the same API as the page; `native` runs
// build/native/bahdanau-translate itself.
import { spawnSync } from 'node:child_process';

import { MAX_BATCH, createTranslator } from '../web/lib/bahdanau.js';
import { textTooLong } from '../web/lib/args.js';
import { loadVariant } from '../web/lib/loader.js';
import { DEFAULT_MODEL, ENGINES, NATIVE_CLI, ensureBuilt } from './lib/engines.mjs';
import { ATTEND_FLAGS, ATTEND_SYNOPSIS, ATTEND_USAGE, alignmentHeatmap, attendCheck, attendEdits, attendParse,
  newAttend, translationHeatmap } from './lib/attend-args.mjs';
import { alignmentLine, alignmentObject, dump, infoObject, translationObject } from './lib/native-json.mjs';
import { rawArgs, utf8Error } from './lib/raw-args.mjs';

const PROG = 'bahdanau-live';
const USAGE = `usage: ${PROG} [--engine E] [--model FILE] [--beam K] [--max-len N] [--json] [--heatmap]
                     [--scalar] [--info] [--split-sentences] [--batch N]
                     [--force TARGET | --force-tsv] ${ATTEND_SYNOPSIS} [TEXT...]
Translates TEXT, or each line of standard input, and prints one translation per line.
  --engine E     wasm-simd (default), wasm-scalar, or native (build/native/bahdanau-translate)
  --model FILE   model file (.safetensors); default models/en-fr.safetensors
  --beam K       beam search with K hypotheses (1..16; default 1 = greedy)
  --max-len N    cap the output at N tokens
  --json         one JSON object per line: source, target, attention, probabilities
  --heatmap      draw the attention matrix after each translation
  --scalar       use the scalar kernels (for wasm: the wasm-scalar engine)
  --info         print the model's description as JSON and exit
  --split-sentences  translate each sentence of a line on its own (for text longer than
                 the model reads); the line's output joins their translations, --json
                 gives {"sentences": [one object each], "text": the joined text}
  --batch N      read standard input N lines at a time (1..1024) and decode their
                 sentences together (greedy: one batch; beam: one at a time); the
                 output is the same, line for line
  --force TARGET forced decoding: align the given translation TARGET to TEXT instead of
                 translating; prints each target word's probability (<unk> marks a word
                 outside the vocabulary) and the whole target's log-probability
  --force-tsv    the same for each standard input line SOURCE<TAB>TARGET
${ATTEND_USAGE}`;

const err = (msg) => process.stderr.write(`${PROG}: ${msg}\n`);
const out = (text) => process.stdout.write(text);

// strtol's view of an integer, as the native CLI parses --beam and --max-len.
function parseIntArg(s, lo, hi) {
  if (!/^[ \t\n\v\f\r]*[+-]?\d+$/.test(s)) return null;
  const v = Number(s.trim());
  return v >= lo && v <= hi ? v : null;
}

// -> options, or a number: the exit status (0 after --help).
function parse(argv) {
  const o = { engine: 'wasm-simd', model: null, beam: 1, maxLen: undefined, json: false,
    heatmap: false, scalar: false, info: false, force: null, forceTsv: false, split: false, batch: 0,
    text: [], passthrough: [], textAt: [], forceAt: null, attend: newAttend() };
  let raw; // the arguments' bytes, read once an edit flag needs them (its UTF-8 check)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) {
        err(`${a} needs a value`);
        return null;
      }
      return argv[++i];
    };
    if (a === '-h' || a === '--help') {
      out(USAGE);
      return 0;
    } else if (a === '--engine') {
      const v = value();
      if (v === null) return 2;
      if (!ENGINES.includes(v)) {
        err(`--engine takes one of ${ENGINES.join(', ')}`);
        return 2;
      }
      o.engine = v;
      continue; // not passed on to the native CLI
    } else if (a === '--model') {
      const v = value();
      if (v === null) return 2;
      o.model = v;
      o.passthrough.push(a, v);
      continue;
    } else if (a === '--beam' || a === '--max-len' || a === '--batch') {
      const hi = a === '--beam' ? 16 : 1024; // --batch: bl::kMaxBatch
      const v = value();
      const n = v === null ? null : parseIntArg(v, 1, hi);
      if (n === null) {
        err(`${a} takes an integer in 1..${hi}`);
        return 2;
      }
      if (a === '--beam') o.beam = n;
      else if (a === '--batch') o.batch = n;
      else o.maxLen = n;
      o.passthrough.push(a, v);
      continue;
    } else if (a === '--force') {
      const v = value();
      if (v === null) return 2;
      o.force = v;
      o.forceAt = i;
      o.passthrough.push(a, v);
      continue;
    } else if (ATTEND_FLAGS.includes(a)) {
      const v = value();
      if (v === null) return 2;
      raw ??= rawArgs(argv);
      const e = attendParse(a, v, o.attend, raw?.[i] ?? null);
      if (e) {
        err(e);
        return 2;
      }
      o.passthrough.push(a, v);
      continue;
    } else if (a === '--attend-hold') {
      attendParse(a, '', o.attend);
    } else if (a === '--force-tsv') {
      o.forceTsv = true;
    } else if (a === '--split-sentences') {
      o.split = true;
    } else if (a === '--json' || a === '--heatmap' || a === '--scalar' || a === '--info') {
      o[a.slice(2)] = true;
    } else if (a === '--') {
      o.passthrough.push(...argv.slice(i));
      o.text.push(...argv.slice(i + 1));
      o.textAt.push(...argv.slice(i + 1).map((_, k) => i + 1 + k));
      break;
    } else if (a.startsWith('--')) {
      err(`unknown option ${a}\n${USAGE.trimEnd()}`);
      return 2;
    } else {
      o.text.push(a);
      o.textAt.push(i);
    }
    o.passthrough.push(a);
  }
  if (o.scalar && o.engine === 'wasm-simd') o.engine = 'wasm-scalar';
  // The native CLI's checks, in its order and words.
  if (o.split && (o.force !== null || o.forceTsv)) {
    err('--split-sentences does not apply to forced decoding');
    return 2;
  }
  if (o.batch && (o.force !== null || o.forceTsv)) {
    err('--batch does not apply to forced decoding');
    return 2;
  }
  if (o.force !== null && o.forceTsv) {
    err('--force and --force-tsv exclude each other');
    return 2;
  }
  if (o.force !== null && !o.text.length) {
    err('--force TARGET needs the source TEXT as arguments (use --force-tsv for standard input)');
    return 2;
  }
  if (o.forceTsv && o.text.length) {
    err('--force-tsv reads standard input, not TEXT');
    return 2;
  }
  const e = attendCheck(o.attend, o.beam, o.split);
  if (e) {
    err(e);
    return 2;
  }
  return o;
}

function runNative(o) {
  const args = o.model === null ? ['--model', DEFAULT_MODEL, ...o.passthrough] : o.passthrough;
  const r = spawnSync(NATIVE_CLI, args, { stdio: 'inherit' });
  if (r.error) {
    err(`cannot run ${NATIVE_CLI}: ${r.error.message}`);
    return 1;
  }
  return r.status ?? 1;
}

// Standard input split on \n, as raw bytes (so invalid UTF-8 is caught per line).
async function* stdinLines() {
  let pending = Buffer.alloc(0);
  for await (const chunk of process.stdin) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (let nl; (nl = pending.indexOf(10)) >= 0; pending = pending.subarray(nl + 1)) {
      yield pending.subarray(0, nl);
    }
  }
  if (pending.length) yield pending;
}

// The native CLI's error for TEXT (the arguments joined by spaces) or the --force TARGET that
// is not valid UTF-8, from the bytes as typed; null when they are valid, or unknowable here.
function argumentsError(o, argv) {
  const raw = rawArgs(argv);
  if (!raw) return null;
  const text = Buffer.concat(o.textAt.flatMap((i, k) => (k ? [Buffer.from(' '), raw[i]] : [raw[i]])));
  const source = o.textAt.length ? utf8Error(text) : null;
  const target = o.forceAt === null ? null : utf8Error(raw[o.forceAt]);
  return source ?? (target && `target: ${target}`);
}

async function main(argv) {
  const o = parse(argv);
  if (typeof o === 'number') return o;
  const badBytes = argumentsError(o, argv);
  if (badBytes) {
    err(badBytes);
    out(o.json ? '{}\n' : '\n');
    return 1;
  }
  try {
    ensureBuilt(o.engine);
  } catch (e) {
    err(e.message);
    return 1;
  }
  if (o.engine === 'native') return runNative(o);

  const model = o.model ?? DEFAULT_MODEL;
  let tr;
  try {
    tr = await createTranslator({ model, simd: o.engine === 'wasm-simd' });
  } catch (e) {
    err(e.message.includes(model) ? e.message : `${model}: ${e.message}`);
    return 1;
  }
  const { module } = await loadVariant(tr.engine.variant); // shared instance, for dumpJson
  if (o.info) {
    out(`${dump(module, infoObject(tr.info()), { floats: false })}\n`);
    return 0;
  }

  const fail = (message) => {
    err(message);
    out(o.json ? '{}\n' : '\n');
    return false;
  };

  // One line's output from its translate() result (with --split-sentences, {text, sentences}).
  const print = (r) => {
    const parts = o.split ? r.sentences : [r];
    const json = () => (o.split
      ? dump(module, { sentences: parts.map(translationObject), text: r.text })
      : dump(module, translationObject(r)));
    out(`${o.json ? json() : r.text}\n`);
    for (const p of parts) if (o.heatmap && p.targetTokens.length) out(translationHeatmap(tr, p));
    return true;
  };

  const translateLine = (text) => {
    const { edits, error } = attendEdits(tr, text, o.attend);
    if (error !== undefined) return fail(error);
    let r;
    try {
      r = tr.translate(text, { beam: o.beam, maxLen: o.maxLen, splitSentences: o.split, edits });
    } catch (e) {
      return fail(e.message);
    }
    return print(r);
  };

  // --batch: translateLine for each line of a group ({line} or {error}), all their sentences in
  // one translateBatch() call, which gives exactly translate()'s results; output and messages
  // in input order, as translateLine gives them.
  const translateGroup = (group) => {
    const pieces = group.map((g) => {
      if (g.error !== undefined) return [];
      if (!o.split) return [g.line];
      const long = textTooLong(g.line); // as translate() checks a line it splits itself
      if (long) {
        g.error = long;
        return [];
      }
      try {
        return tr.splitSentences(g.line);
      } catch (e) {
        g.error = e.message;
        return [];
      }
    });
    const all = pieces.flat(); // with --split-sentences, maybe more than one call takes
    const results = [];
    for (let k = 0; k < all.length; k += MAX_BATCH) {
      results.push(...tr.translateBatch(all.slice(k, k + MAX_BATCH), { beam: o.beam, maxLen: o.maxLen }));
    }
    let ok = true;
    let at = 0;
    group.forEach((g, i) => {
      const rs = results.slice(at, (at += pieces[i].length));
      const bad = rs.findIndex((r) => r.error !== undefined);
      if (g.error !== undefined || bad >= 0) {
        ok = fail(g.error ?? (o.split ? `sentence ${bad + 1}: ${rs[bad].error}` : rs[bad].error));
      } else {
        print(o.split ? { text: rs.map((r) => r.text).filter(Boolean).join(' '), sentences: rs } : rs[0]);
      }
    });
    return ok;
  };

  const forceLine = (source, target) => {
    const { edits, error } = attendEdits(tr, source, o.attend);
    if (error !== undefined) return fail(error);
    let r;
    try {
      r = tr.align(source, target, { edits });
    } catch (e) {
      return fail(e.message);
    }
    out(`${o.json ? dump(module, alignmentObject(r), { ints: ['unknown'] }) : alignmentLine(r)}\n`);
    if (o.heatmap && r.steps.length) out(alignmentHeatmap(tr, r));
    return true;
  };

  const batch = o.attend.flags.length ? 0 : o.batch; // edits: each line decodes on its own
  let ok = true;
  if (o.text.length) {
    ok = o.force !== null ? forceLine(o.text.join(' '), o.force) : translateLine(o.text.join(' '));
  } else {
    const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let group = [];
    for await (const bytes of stdinLines()) {
      let line;
      try {
        line = utf8.decode(bytes);
      } catch {
        line = null;
      }
      const invalid = line === null ? utf8Error(bytes) : null; // the native CLI's words
      if (batch) {
        group.push(line === null ? { error: invalid } : { line });
        if (group.length === batch) {
          ok = translateGroup(group) && ok;
          group = [];
        }
        continue;
      }
      if (line === null) {
        ok = fail(invalid);
        continue;
      }
      if (o.forceTsv) {
        const tab = line.indexOf('\t');
        if (tab < 0) {
          err('--force-tsv: line without a TAB');
          out(o.json ? '{}\n' : '\n');
          ok = false;
          continue;
        }
        ok = forceLine(line.slice(0, tab), line.slice(tab + 1)) && ok;
      } else {
        ok = translateLine(line) && ok;
      }
    }
    if (group.length) ok = translateGroup(group) && ok;
  }
  tr.dispose();
  return ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (e) => {
    err(e.stack || String(e));
    process.exitCode = 1;
  },
);
