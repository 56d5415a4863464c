// learn.html's pure part: what the page shows, read from scripts/timelapse's file
// (web/data/timelapse-en-fr.json; its format: scripts/nmt/timelapse.py). Nothing here computes a
// measure the file does not hold: the curves are the frames' own numbers, the settles frame is
// the one whose step the file names, and the only arithmetic is for display (seconds as minutes,
// a frame's place on the slider). No DOM, so tests/node/learn.test.mjs runs it in Node.

export const DEFAULT_DATA = 'data/timelapse-en-fr.json';

// ?data=URL, same origin only (a test points the page at tests/fixtures/ this way). -> {url}
// or {error} for a URL on another origin or one that does not parse; the default without it.
export function dataUrl(location) {
  const q = new URLSearchParams(location.search).get('data');
  if (q === null || q === '') return { url: new URL(DEFAULT_DATA, location.href).href };
  let u;
  try {
    u = new URL(q, location.href);
  } catch {
    return { error: q };
  }
  if (u.origin !== new URL(location.href).origin) return { error: q };
  return { url: u.href };
}

const finite = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// The file, checked for what the page reads. -> the data, or throws an Error naming what is wrong.
export function checkTimelapse(data) {
  const fail = (what) => { throw new Error(`not a timelapse file: ${what}`); };
  if (!data || typeof data !== 'object') fail('not an object');
  if (!Array.isArray(data.frames) || data.frames.length === 0) fail('no frames');
  if (!Array.isArray(data.sentences) || data.sentences.length === 0) fail('no sentences');
  data.sentences.forEach((s, k) => {
    if (!Array.isArray(s.src_tokens) || !Array.isArray(s.tgt_tokens)) fail(`sentence ${k + 1} has no tokens`);
    if (!Array.isArray(s.key) || s.key.length !== 2) fail(`sentence ${k + 1} has no key link`);
  });
  data.frames.forEach((f, i) => {
    if (!Number.isFinite(f.step)) fail(`frame ${i + 1} has no step`);
    if (!Array.isArray(f.rows) || f.rows.length !== data.sentences.length) fail(`frame ${i + 1} lacks rows`);
  });
  return data;
}

// The curves, one point per frame: [step, value] where the frame has the value. The diagonal
// is one number of the file (measures.diagonal_accuracy), drawn as a flat line.
export function curvesOf(data) {
  const series = (key) => data.frames.flatMap((f) => (finite(f[key]) === null ? [] : [[f.step, f[key]]]));
  return {
    loss: series('dev_loss'),
    bleu: series('bleu'),
    align: series('align'),
    offDiagonal: series('align_offdiag'),
    diagonal: finite(data.measures?.diagonal_accuracy),
  };
}

// One frame's numbers for the stats line: {step, minutes, loss, bleu, align, offDiagonal}.
export function frameStats(frame) {
  const secs = finite(frame.elapsed);
  return {
    step: frame.step,
    minutes: secs === null ? null : secs / 60,
    loss: finite(frame.dev_loss),
    bleu: finite(frame.bleu),
    align: finite(frame.align),
    offDiagonal: finite(frame.align_offdiag),
  };
}

// Sentence k's key link, as words: {fr, en, row, col}.
export function keyLink(sentence) {
  const [row, col] = sentence.key;
  return { fr: sentence.tgt_tokens[row], en: sentence.src_tokens[col], row, col };
}

// The frame (its index) whose step is sentence k's `settles`, or null: not settled in this run
// (or a step that no frame has, which the file never writes).
export function settlesFrame(data, k) {
  const step = data.sentences[k]?.settles;
  if (step === null || step === undefined) return null;
  const i = data.frames.findIndex((f) => f.step === step);
  return i < 0 ? null : i;
}

// Every sentence's settles mark for the slider: [{sentence, frame, at (0..1 along it)}], the
// sentences that settle only.
export function settleMarks(data) {
  const last = Math.max(1, data.frames.length - 1);
  return data.sentences.flatMap((_, k) => {
    const frame = settlesFrame(data, k);
    return frame === null ? [] : [{ sentence: k, frame, at: frame / last }];
  });
}

// The settles line's parts for sentence k: {settled: true, fr, en, step, minutes} or
// {settled: false, fr, en}. The strings table words it (learn/strings.js).
export function settlesLine(data, k) {
  const { fr, en } = keyLink(data.sentences[k]);
  const frame = settlesFrame(data, k);
  if (frame === null) return { settled: false, fr, en };
  const f = data.frames[frame];
  return { settled: true, fr, en, step: f.step, minutes: finite(f.elapsed) === null ? null : f.elapsed / 60, frame };
}

// Sentence k's matrix at frame i, as ui/matrix.js draws it: {columns, rows: [{word, weights}],
// key: {row, col}}. A row whose word the file lacks is left out.
export function matrixAt(data, i, k) {
  const s = data.sentences[k];
  const rows = (data.frames[i]?.rows?.[k] ?? [])
    .slice(0, s.tgt_tokens.length)
    .map((weights, r) => ({ word: s.tgt_tokens[r], weights }));
  return { columns: s.src_tokens, rows, key: { row: s.key[0], col: s.key[1] } };
}

// What the page says the run is, from the file: its name and note, the scoring and attention
// width of its config, its recipe's minutes, aligner guidance (the recipe's weight, the config's
// attention_guidance) and the checkpoint it started from, if any, and the command.
export function runFacts(data) {
  // guidance: 'none' (the recipe says no aligner, no start from another run), 'guided', 'init'
  // (it continued another run: what that one had, this file cannot say) or null (no recipe).
  const c = data.config ?? {};
  const r = data.recipe ?? {};
  const f = {
    model: typeof data.model === 'string' ? data.model : '',
    note: typeof data.note === 'string' ? data.note : '',
    scoring: typeof c.scoring === 'string' ? c.scoring : null,
    attn: finite(c.attn),
    minutes: finite(r.minutes),
    guided: finite(r.guided_alignment),
    guidance: typeof c.attention_guidance === 'string' ? c.attention_guidance : null,
    init: typeof r.init === 'string' && r.init ? r.init : null,
    frames: data.frames.length,
    lastStep: data.frames.at(-1).step,
    origin: null,
    command: typeof data.command === 'string' ? data.command : '',
    attribution: typeof data.attribution === 'string' ? data.attribution : '',
  };
  if ((f.guided ?? 0) > 0 || f.guidance) f.origin = 'guided';
  else if (f.init) f.origin = 'init';
  else if (data.recipe) f.origin = 'none';
  return f;
}

// x on a log scale of steps for the charts: log10(step + 1), so step 0 sits at 0. Display only.
export const logStep = (step) => Math.log10(step + 1);
