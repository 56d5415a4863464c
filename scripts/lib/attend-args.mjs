// Attention edits from the command line, for the Node CLI (scripts/translate.mjs): --attend I=J,
// --attend-weights I=w0,w1,..., --attend-hold, --attend-head L.H and --ablate-head I=L.H. The
// native CLI's src/cli/attend.cpp in JS, message for message and byte for byte in --json and
// --heatmap (docs/attention-edits.md), over web/lib's edits option.
import { utf8Error } from './raw-args.mjs';

// The edit flags that take a value (--attend-hold takes none).
export const ATTEND_FLAGS = ['--attend', '--attend-weights', '--attend-head', '--ablate-head'];

export const ATTEND_SYNOPSIS = `[--attend I=J]
                     [--attend-weights I=w0,w1,...] [--attend-hold]
                     [--attend-head L.H] [--ablate-head I=L.H]`;
export const ATTEND_USAGE = `  --attend I=J   attention edit: output word I (from 0) mixes its context from source
                 position J alone (from 0), or from the source word J (its first
                 occurrence, in any case); repeatable. --json adds the edited rows beside
                 the model's own and the continuation; --heatmap marks them
  --attend-weights I=w0,w1,...  output word I mixes its context from these weights,
                 one per source column (the source tokens, then </s>); repeatable
  --attend-hold  keep each edit at every later step too
  --attend-head L.H  Transformer: edit decoder layer L's head H only (from 0)
  --ablate-head I=L.H  Transformer: switch layer L's head H off at output word I
`;

const MAX_INDEX = 1023; // I, J, L and H: below the CLIs' --max-len bound
const NUMBER = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const NOTE = "*: an edited row, decoded with the given weights; (own): the model's own weights there\n";

const TAKES = {
  '--attend': '--attend takes I=J (an output position I from 0 to 1023; J a source position from 0 to 1023 or a source word)',
  '--attend-weights': '--attend-weights takes I=w0,w1,... (an output position I from 0 to 1023; one decimal weight per source column: the source tokens, then </s>)',
  '--attend-head': '--attend-head takes L.H (a decoder layer L and a head H, each from 0 to 1023)',
  '--ablate-head': '--ablate-head takes I=L.H (an output position I, a decoder layer L and a head H, each from 0 to 1023)',
};

export function newAttend() {
  return { flags: [], hold: false, layer: -1, head: -1, headGiven: false };
}

// Digits only, at most MAX_INDEX; else null.
function indexArg(s) {
  if (!/^[0-9]{1,9}$/.test(s)) return null;
  const v = Number(s);
  return v <= MAX_INDEX ? v : null;
}

function layerHead(s) {
  const dot = s.indexOf('.');
  if (dot < 0) return null;
  const [layer, head] = [indexArg(s.slice(0, dot)), indexArg(s.slice(dot + 1))];
  return layer === null || head === null ? null : { layer, head };
}

// One of the edit flags with its value (raw: its bytes as typed, or null where unknown) into
// a; '' or the usage error's message.
export function attendParse(flag, value, a, raw = null) {
  if (flag === '--attend-hold') {
    a.hold = true;
    return '';
  }
  const invalid = raw && utf8Error(raw);
  if (invalid) return `${flag}: ${invalid}`;
  const bad = `${TAKES[flag]}, got "${value}"`;
  if (flag === '--attend-head') {
    const lh = layerHead(value);
    if (!lh) return bad;
    Object.assign(a, lh, { headGiven: true });
    return '';
  }
  const eq = value.indexOf('=');
  const step = eq < 0 ? null : indexArg(value.slice(0, eq));
  if (step === null) return bad;
  const rhs = value.slice(eq + 1);
  const f = { step, word: '', column: -1, weights: [], ablate: false, layer: -1, head: -1 };
  if (flag === '--attend' && /^[+-]?[0-9]+$/.test(rhs)) {
    f.column = indexArg(rhs);
    if (f.column === null) return bad;
  } else if (flag === '--attend') {
    if (!rhs) return bad;
    f.word = rhs;
  } else if (flag === '--attend-weights') {
    const ws = rhs.split(',');
    if (!ws.every((w) => NUMBER.test(w))) return bad;
    f.weights = ws.map(Number);
  } else {
    const lh = layerHead(rhs);
    if (!lh) return bad;
    Object.assign(f, lh, { ablate: true });
  }
  a.flags.push(f);
  return '';
}

// The usage errors of the whole command line: '' or the message.
export function attendCheck(a, beam, split) {
  const edits = a.flags.length > 0;
  if (a.hold && !edits) return '--attend-hold goes with --attend, --attend-weights or --ablate-head';
  if (a.headGiven && !a.flags.some((f) => !f.ablate)) return '--attend-head goes with --attend or --attend-weights';
  if (edits && split) return 'attention edits apply to one sentence: not with --split-sentences';
  if (edits && beam > 1) return 'attention edits need greedy decoding: not with --beam K > 1';
  return '';
}

// The tokenizer's case table (docs/tokenization.md): A-Z, U+00C0-U+00DE but U+00D7, and Œ.
function folded(s) {
  return Array.from(s, (ch) => {
    const c = ch.codePointAt(0);
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0xc0 && c <= 0xde && c !== 0xd7)) return String.fromCodePoint(c + 0x20);
    return c === 0x152 ? '\u0153' : ch;
  }).join('');
}

// The edits for one sentence, as web/lib takes them: {edits} or {error} (a word J that is not
// one of its tokens). A source without tokens (an empty line) gets no word edits.
export function attendEdits(tr, source, a) {
  let tokens = null;
  const edits = [];
  for (const f of a.flags) {
    const e = { step: f.step, column: f.column, layer: f.ablate ? f.layer : a.layer,
      head: f.ablate ? f.head : a.head, ablate: f.ablate, hold: a.hold };
    if (f.weights.length) e.weights = f.weights;
    if (f.word) {
      try {
        tokens ??= [...tr.tokenize(source), '</s>'];
      } catch (err) {
        return { error: err.message };
      }
      if (tokens.length === 1) continue; // nothing to translate: no edit to make
      const want = folded(f.word.normalize('NFC')); // as web/lib prepares the source
      e.column = tokens.findIndex((t) => folded(t) === want);
      if (e.column < 0) {
        return { error: `--attend ${f.step}=${f.word}: no source token "${f.word}" in this sentence (its tokens: ${tokens.join(' ')})` };
      }
    }
    edits.push(e);
  }
  return { edits };
}

function editedRows(edited, given, own) {
  return { edited, given_attention: given, own_attention: own };
}

// --json's added keys for a translate() result (none without edited rows).
export function translationEdits(r) {
  if (!r.edited.length) return {};
  return { ...editedRows(r.edited, r.edited.map((i) => r.attention[i] ?? []), r.ownAttention),
    continuation: r.targetTokens.slice(Math.max(r.edited[0], 0)) };
}

// --json's added keys for an align() result.
export function alignmentEdits(r) {
  const at = r.steps.flatMap((s, i) => (s.edited ? [i] : []));
  return at.length ? editedRows(at, at.map((i) => r.steps[i].alpha), at.map((i) => r.steps[i].ownAlpha)) : {};
}

// --heatmap: tr.heatmap()'s picture with each edited row marked '*' and the model's own row
// under it, '(own)'; rows: the attention rows, edited: their indices, own: parallel to edited.
export function attendHeatmap(tr, { sourceTokens, targetTokens, rows, edited, own }) {
  if (!edited.length) return tr.heatmap({ sourceTokens, targetTokens, attention: rows });
  const labels = [];
  const shown = [];
  targetTokens.forEach((t, i) => {
    const k = edited.indexOf(i);
    labels.push(k >= 0 ? `${t}*` : t);
    shown.push(rows[i] ?? []);
    if (k >= 0) {
      labels.push('(own)');
      shown.push(own[k] ?? []);
    }
  });
  return tr.heatmap({ sourceTokens, targetTokens: labels, attention: shown }) + NOTE;
}

export function translationHeatmap(tr, r) {
  return attendHeatmap(tr, { sourceTokens: r.sourceTokens, targetTokens: r.targetTokens,
    rows: r.attention, edited: r.edited, own: r.ownAttention });
}

export function alignmentHeatmap(tr, r) {
  const edited = r.steps.flatMap((s, i) => (s.edited ? [i] : []));
  return attendHeatmap(tr, { sourceTokens: r.sourceTokens, targetTokens: r.targetTokens,
    rows: r.steps.map((s) => s.alpha), edited, own: edited.map((i) => r.steps[i].ownAlpha) });
}
