// learn.html's pure parts ("Watch attention learn to align", web/learn/timelapse.js and the
// sentences of web/learn/strings.js), on tests/fixtures/timelapse-tiny.json, a small file in
// scripts/timelapse's format (scripts/nmt/timelapse.py): 5 frames, 2 sentences, the first
// settling at step 160 (frame 4), the second never. Every number the page draws is the file's:
// the curves are its frames' values, the settles frame the one whose step the file names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { LEARN_LINK, LEARN_STRINGS } from '../../web/learn/strings.js';
import { DEFAULT_DATA, checkTimelapse, curvesOf, dataUrl, frameStats, keyLink, logStep, matrixAt, runFacts,
  settleMarks, settlesFrame, settlesLine } from '../../web/learn/timelapse.js';

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/timelapse-tiny.json', import.meta.url), 'utf8'));
const at = (href) => new URL(href);

test('the fixture is in scripts/timelapse\'s format, and checkTimelapse takes it', () => {
  assert.equal(checkTimelapse(FIXTURE), FIXTURE);
  for (const k of ['version', 'command', 'model', 'note', 'config', 'recipe', 'measures', 'sentences', 'frames', 'attribution']) assert.ok(k in FIXTURE, k);
  assert.equal(FIXTURE.frames.length, 5);
  for (const f of FIXTURE.frames) {
    for (const k of ['step', 'elapsed', 'dev_loss', 'bleu', 'align', 'align_offdiag', 'rows']) assert.ok(k in f, k);
    f.rows.forEach((rows, k) => {
      assert.equal(rows.length, FIXTURE.sentences[k].tgt_tokens.length, 'a row per French token, </s> included');
      for (const r of rows) assert.equal(r.length, FIXTURE.sentences[k].src_tokens.length);
    });
  }
  assert.throws(() => checkTimelapse({ frames: [] }), /not a timelapse file: no frames/);
  assert.throws(() => checkTimelapse({ frames: [{ step: 0, rows: [] }], sentences: [{ src_tokens: [], tgt_tokens: [], key: [0, 0] }] }), /frame 1 lacks rows/);
  assert.throws(() => checkTimelapse(null), /not an object/);
});

test('frame -> curves: one point per frame, the file\'s own values; the diagonal a single number', () => {
  const c = curvesOf(FIXTURE);
  assert.deepEqual(c.loss, FIXTURE.frames.map((f) => [f.step, f.dev_loss]));
  assert.deepEqual(c.bleu, FIXTURE.frames.map((f) => [f.step, f.bleu]));
  assert.deepEqual(c.align, FIXTURE.frames.map((f) => [f.step, f.align]));
  assert.deepEqual(c.offDiagonal, FIXTURE.frames.map((f) => [f.step, f.align_offdiag]));
  assert.equal(c.diagonal, FIXTURE.measures.diagonal_accuracy);
  // A frame without a measure (no gold set: the file writes NaN, read as null) has no point.
  const gaps = { ...FIXTURE, measures: {}, frames: FIXTURE.frames.map((f, i) => ({ ...f, align: i === 1 ? null : f.align })) };
  assert.equal(curvesOf(gaps).align.length, 4);
  assert.equal(curvesOf(gaps).diagonal, null);
  assert.deepEqual(frameStats(FIXTURE.frames[4]), { step: 640, minutes: 1362.5 / 60, loss: 3.31, bleu: 7.93, align: 71.4, offDiagonal: 45.12 });
  assert.equal(frameStats({ step: 3 }).minutes, null);
  assert.equal(logStep(0), 0);
  assert.equal(logStep(9), 1);
});

test('settles: the frame whose step the file names, its mark along the slider, and its line', () => {
  assert.equal(FIXTURE.sentences[0].settles, 160);
  assert.equal(settlesFrame(FIXTURE, 0), 3);
  assert.equal(settlesFrame(FIXTURE, 1), null, 'null: not settled in this run');
  assert.deepEqual(settleMarks(FIXTURE), [{ sentence: 0, frame: 3, at: 3 / 4 }]);
  assert.deepEqual(keyLink(FIXTURE.sentences[0]), { fr: 'noir', en: 'black', row: 2, col: 1 });
  assert.deepEqual(settlesLine(FIXTURE, 0), { settled: true, fr: 'noir', en: 'black', step: 160, minutes: 340.2 / 60, frame: 3 });
  assert.deepEqual(settlesLine(FIXTURE, 1), { settled: false, fr: 'blanc', en: 'white' });
  // Worded: "noir first looks at black for good at step 160", or "not settled in this run".
  const words = (parts, { fr, en }) => `${parts[0]}${fr}${parts[1]}${en}${parts[2]}`;
  const en = LEARN_STRINGS.en;
  assert.match(words(en.settled(160, 340.2 / 60), settlesLine(FIXTURE, 0)), /^“noir” first looks at “black” for good at step 160 \(5\.7 min\)/);
  assert.match(words(en.settled(2300, null), settlesLine(FIXTURE, 0)), /at step 2,300:/);
  assert.match(words(en.unsettled, settlesLine(FIXTURE, 1)), /^“blanc” → “white”: not settled in this run/);
  assert.match(words(LEARN_STRINGS.zh.settled(160, 340.2 / 60), settlesLine(FIXTURE, 0)), /^“noir”从第 160 步起（5\.7 分钟）始终最看向“black”/);
  assert.match(words(LEARN_STRINGS.zh.unsettled, settlesLine(FIXTURE, 1)), /没有稳定下来/);
  // A step no frame has (the file never writes one) marks nothing.
  const odd = { ...FIXTURE, sentences: [{ ...FIXTURE.sentences[0], settles: 7 }] };
  assert.equal(settlesFrame(odd, 0), null);
});

test('a frame\'s matrix: the file\'s rows for the sentence, one per French token, the key cell named', () => {
  const m = matrixAt(FIXTURE, 3, 0);
  assert.deepEqual(m.columns, FIXTURE.sentences[0].src_tokens);
  assert.deepEqual(m.rows.map((r) => r.word), FIXTURE.sentences[0].tgt_tokens);
  assert.deepEqual(m.rows.map((r) => r.weights), FIXTURE.frames[3].rows[0]);
  assert.deepEqual(m.key, { row: 2, col: 1 });
  assert.notDeepEqual(matrixAt(FIXTURE, 0, 0).rows, m.rows, 'frames differ');
});

test('the run, from the file: name, note, config, recipe, command', () => {
  const f = runFacts(FIXTURE);
  assert.equal(f.model, 'tiny-fixture');
  assert.equal(f.note, FIXTURE.note);
  assert.equal(f.scoring, 'additive');
  assert.equal(f.attn, 256);
  assert.equal(f.minutes, 23);
  assert.equal(f.guided, 0);
  assert.equal(f.frames, 5);
  assert.equal(f.lastStep, 640);
  assert.match(f.command, /^scripts\/timelapse /);
  assert.equal(LEARN_STRINGS.en.runLine(f), 'The model “tiny-fixture”, additive (Bahdanau) attention, attention width 256, 23 minutes of training, 5 snapshots up to step 640.');
  assert.match(LEARN_STRINGS.zh.runLine(f), /^模型“tiny-fixture”，加性（Bahdanau）注意力，注意力宽度 256/);
  assert.equal(f.origin, 'none', 'no aligner, no guidance, no start from another run');
  assert.equal(runFacts({ frames: [{ step: 9 }], sentences: [] }).scoring, null);
  assert.equal(runFacts({ frames: [{ step: 9 }], sentences: [] }).origin, null, 'no recipe: the page says nothing of it');
  assert.equal(runFacts({ ...FIXTURE, recipe: { guided_alignment: 0.5 } }).origin, 'guided');
  assert.equal(runFacts({ ...FIXTURE, config: { attention_guidance: 'ibm1-diag' } }).origin, 'guided');
  assert.equal(runFacts({ ...FIXTURE, recipe: { guided_alignment: 0, init: 'runs/a/last.pt' } }).origin, 'init');
});

test('?data=: same origin only; the default is data/timelapse-en-fr.json next to the page', () => {
  assert.equal(DEFAULT_DATA, 'data/timelapse-en-fr.json');
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/learn.html')), { url: 'http://127.0.0.1:8000/data/timelapse-en-fr.json' });
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/site/learn.html?lang=zh')), { url: 'http://127.0.0.1:8000/site/data/timelapse-en-fr.json' });
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/learn.html?data=/fixtures/timelapse-tiny.json')), { url: 'http://127.0.0.1:8000/fixtures/timelapse-tiny.json' });
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/learn.html?data=https://example.com/x.json')), { error: 'https://example.com/x.json' });
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/learn.html?data=//example.com/x.json')), { error: '//example.com/x.json' });
  assert.deepEqual(dataUrl(at('http://127.0.0.1:8000/learn.html?data=http://127.0.0.1:9000/x.json')), { error: 'http://127.0.0.1:9000/x.json' }, 'another port is another origin');
});

test('both languages have the same keys; the nav link has words in both', () => {
  assert.deepEqual(Object.keys(LEARN_STRINGS.zh).sort(), Object.keys(LEARN_STRINGS.en).sort());
  assert.deepEqual(LEARN_LINK, { en: 'Watch it learn', zh: '看它学习' });
  assert.equal(LEARN_STRINGS.en.title, 'Watch attention learn to align');
});
