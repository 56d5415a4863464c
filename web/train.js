// train.html's wiring (issue 25, "Train it yourself"): the controls start a training run
// (web/lib's startTraining, which trains in a worker of its own), and the run's reports move
// into the views: the stats line, the curves, the recorded matrices and the scrubber over them.
// "Translate with it now" and "Open in the translator" take the run's snapshot. The views draw;
// this file only moves data between them.

import { startTraining } from './lib/bahdanau.js';
import { hideErrorBox, showErrorBox } from './app/errors.js';
import { applyStrings, labelLangToggle } from './app/i18n.js';
import { STRINGS } from './ui/strings.js';
import { TrainControls } from './train/controls.js';
import { TrainingCurves } from './train/curves.js';
import { keepTrained, translatorLink } from './train/handoff.js';
import { readTrainParams } from './train/params.js';
import { Scrubber } from './train/scrubber.js';
import { TRAIN_STRINGS } from './train/strings.js';
import { TryIt } from './train/try-it.js';
import { WarmRun } from './train/warm-run.js';
import { WATCH, fromAlignment, fromTranslation, pairViews, watchOptions } from './train/watch.js';
import { WatchedMatrix } from './train/watched-matrix.js';

export { WATCH };
const REPORT_MS = 500; // the stats line and the loss curve
const MEASURE_MS = 3000; // the matrices, the held-out loss and the alignment accuracy

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const params = readTrainParams(location, { sentences: WATCH.length });

let lang = params.lang;
let S = STRINGS[lang]; // the translator's words: the matrix, the step panel, the player
let T = TRAIN_STRINGS[lang];
const both = () => ({ ...S, ...T });
let run = null; // the run being trained (pressed Train), or null
// The next one, loaded and paused (train/warm-run.js); data-prepared says when it waits.
const warm = new WarmRun(startTraining, { onReady: (ready) => { app.dataset.prepared = String(ready); } });
let startedAt = 0; // performance.now() at the press of Train
let progress = null; // the last 'progress' report
const off = []; // the run's unsubscribers

const controls = new TrainControls($('controls'), {
  strings: T,
  choices: params,
  sentences: WATCH.map((w) => w.source),
  on: {
    train: () => train(),
    pause: () => run?.pause(),
    resume: () => run?.resume(),
    reset: () => reset(),
    choice: () => warm.prepare(runOptions(controls.choices)),
    watch: () => watched.show(scrubber.current, controls.choices.watch),
  },
});
const curves = new TrainingCurves($('curves-root'), { strings: T });
const watched = new WatchedMatrix($('watched-root'), { strings: both(), history: () => scrubber.records });
const scrubber = new Scrubber($('scrubber-root'), { strings: T, onPick: (record) => watched.show(record, controls.choices.watch) });
const tryIt = new TryIt($('try-root'), {
  strings: S,
  trainStrings: T,
  simd: params.simd,
  snapshot: async () => ({ bytes: await run.snapshot(), steps: progress?.steps ?? 0 }),
  onError: (title, message) => showError(title, message),
});

function showError(title, detail) {
  showErrorBox($('error'), S, title, detail);
}

function setState(state) {
  app.dataset.state = state;
  controls.setState(state);
  const live = Boolean(run) && state !== 'loading' && state !== 'error';
  tryIt.setAvailable(live);
  $('handoff').disabled = !live;
}

// ---- the run ------------------------------------------------------------------------------

// startTraining's options for the choices on screen. The data is the default,
// web/data/train-en-fr.bin; the gold links (web/data/train-en-fr-gold.json) only where there
// is attention to score.
function runOptions(choice) {
  return {
    gold: choice.scoring !== 'none',
    preset: choice.preset,
    scoring: choice.scoring,
    watch: watchOptions(),
    reportMs: REPORT_MS,
    measureMs: MEASURE_MS,
    simd: params.simd,
    relaxed: params.relaxed,
  };
}

function train() {
  if (run) return;
  const choice = controls.choices;
  hideErrorBox($('error'));
  clearViews();
  curves.setScoring(choice.scoring);
  startedAt = performance.now();
  delete app.dataset.firstMatrixMs;
  run = warm.take(runOptions(choice));
  app.dataset.scoring = choice.scoring;
  app.dataset.preset = choice.preset;
  let begun = false; // the prepared run may still report the pause it was started with
  off.push(
    run.on('state', ({ state, reason }) => {
      if (!begun && state === 'paused') return;
      setState(state);
      if (state === 'error') showError(T.errorTrain, reason ?? '');
      if (state === 'stopped' && reason && reason !== 'disposed') showError(T.stateStopped, reason);
      if (state === 'training' && !begun) {
        begun = true;
        // What the worker trains with (wasm-simd, wasm-relaxed with ?relaxed=1, scalar): for
        // tests and scripts/bench's page rows, whose steps per second depend on it.
        app.dataset.kernels = run.engine?.kernels ?? '';
        firstMatrices(run);
      }
    }),
    run.on('progress', (p) => {
      progress = p;
      controls.setProgress(p);
      curves.addProgress(p);
    }),
    run.on('measure', onMeasure),
  );
  setState('loading');
  run.resume().catch(() => {}); // a failed load is reported by its 'state'
}

// The watched sentences through the first weights at once, rather than after the first
// MEASURE_MS of training: a measurement also scores the held-out pairs and the gold alignment,
// which takes the worker several seconds, while these few decodings take a fraction of one.
// Both views, as a measurement has them (train/watch.js); a record like a measurement's,
// without its numbers; the scrubber keeps it first.
async function firstMatrices(mine) {
  try {
    const results = await Promise.all(WATCH.map(({ source, reference }) =>
      Promise.all([mine.align(source, reference), mine.translate(source)])));
    if (run !== mine || scrubber.records.length > 0) return; // reset, or a measurement came first
    const watchedNow = results.map(([a, t], i) => {
      const { source, reference } = WATCH[i];
      return { source, reference: fromAlignment(source, reference, a), own: fromTranslation(source, t) };
    });
    onMatrices({ steps: progress?.steps ?? 0, seconds: progress?.seconds ?? 0, watched: watchedNow });
  } catch {
    // the run was reset or failed meanwhile: its 'state' says so
  }
}

function onMatrices(record) {
  scrubber.add(record);
  if (!app.dataset.firstMatrixMs && record.watched?.length) {
    app.dataset.firstMatrixMs = String(Math.round(performance.now() - startedAt));
  }
}

function onMeasure(m) {
  curves.addMeasure(m);
  onMatrices({ ...m, watched: pairViews(m.watched) });
}

// Ends the run (its worker is stopped at once) and clears what it drew: back to 0 steps.
function reset() {
  for (const f of off.splice(0)) f();
  run?.dispose();
  run = null;
  clearViews();
  hideErrorBox($('error'));
  setState('ready');
  warm.prepare(runOptions(controls.choices));
  $('train').focus();
}

function clearViews() {
  progress = null;
  controls.setProgress(null);
  curves.reset();
  scrubber.reset();
  tryIt.forget();
}

// "Open in the translator": the snapshot kept in this browser (train/handoff.js), then the main
// page opened on it in a new tab, so that this run goes on; in this tab where tabs are refused.
async function handoff() {
  if (!run) return;
  try {
    const bytes = await run.snapshot();
    const c = controls.choices;
    await keepTrained(bytes, { steps: progress?.steps ?? 0, seconds: progress?.seconds ?? 0, scoring: app.dataset.scoring ?? c.scoring, preset: app.dataset.preset ?? c.preset });
    const url = translatorLink(location.href, { lang, text: tryIt.e.input.value.trim() });
    const tab = window.open(url, '_blank');
    if (tab) tab.opener = null;
    else location.assign(url);
  } catch (e) {
    showError(T.errorHandoff, e.message);
  }
}

// ---- language -----------------------------------------------------------------------------

function setLanguage(next) {
  lang = next;
  S = STRINGS[lang];
  T = TRAIN_STRINGS[lang];
  applyStrings(document, { ...S, ...T }, lang);
  labelLangToggle($('lang'), S, lang);
  controls.setStrings(T);
  curves.setStrings(T);
  watched.setStrings(both());
  scrubber.setStrings(T);
  tryIt.setStrings(S, T);
  updateLinks();
}

// The ways out keep the language.
function updateLinks() {
  for (const role of ['back', 'why-nav', 'compare-nav']) {
    const a = $(role);
    const url = new URL(a.getAttribute('href').split('?')[0], location.href);
    if (lang === 'zh') url.searchParams.set('lang', 'zh');
    a.href = url.href;
  }
}

function wire() {
  $('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
  $('handoff').addEventListener('click', handoff);
  // Leaving the page ends the run: its worker would otherwise train on for nobody.
  addEventListener('pagehide', () => {
    run?.dispose();
    warm.dispose();
  });
}

wire();
setLanguage(lang);
setState('ready');
warm.prepare(runOptions(controls.choices));
