// learn.html's wiring ("Watch attention learn to align", issue 23): one recorded training run
// (scripts/timelapse's file, web/data/timelapse-en-fr.json, or ?data= on this site) played back
// frame by frame. The player picks the frame, the select the sentence; the matrix, the charts,
// the stats line and the table draw that frame's numbers from the file. This file only moves
// data between the views (learn/*.js); it computes nothing the file does not hold.
//
// URL parameters: lang=zh (Chinese), data=URL (same origin only), sentence=N (from 1),
// frame=N (from 1). Automation hooks: data-role="app" data-state ("loading" | "ready" |
// "error"), data-frame and data-sentence; the views' own (learn/*.js).

import { hideErrorBox, showErrorBox } from './app/errors.js';
import { applyStrings, labelLangToggle } from './app/i18n.js';
import { STRINGS } from './ui/strings.js';
import { h } from './ui/dom.js';
import { niceTicks } from './ui/ticks.js';
import { FrameChart } from './learn/chart.js';
import { FramePlayer } from './learn/player.js';
import { SentenceView } from './learn/sentence-view.js';
import { LEARN_STRINGS } from './learn/strings.js';
import { checkTimelapse, curvesOf, dataUrl, frameStats, runFacts, settleMarks } from './learn/timelapse.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const q = new URLSearchParams(location.search);
let lang = q.get('lang') === 'zh' ? 'zh' : 'en';
let S = { ...STRINGS[lang], ...LEARN_STRINGS[lang] };
let data = null;
let curves = null;
let sentence = 0;

const player = new FramePlayer($('player-root'), { strings: S, onFrame: () => showFrame() });
const view = new SentenceView($('sentence-root'), { strings: S, onChoose: (k) => { sentence = k; showFrame(); } });
const charts = {
  loss: new FrameChart($('curves-root'), { role: 'loss-chart' }),
  bleu: new FrameChart($('curves-root'), { role: 'bleu-chart' }),
  align: new FrameChart($('curves-root'), { role: 'align-chart' }),
};

const int = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const fixed = (d) => (v) => (Number.isFinite(v) ? v.toFixed(d) : '—');
const pct = (v) => (Number.isFinite(v) ? `${v.toFixed(1)}%` : '—');

function frameLabel(i) {
  const f = frameStats(data.frames[i]);
  return S.frameValue(i + 1, data.frames.length, f.step, f.minutes);
}

// The current frame, everywhere.
function showFrame() {
  if (!data) return;
  const i = player.frame;
  const f = data.frames[i];
  view.show(i, sentence);
  player.setMarks(settleMarks(data), sentence);
  $('stats').textContent = S.stats(frameStats(f));
  Object.assign(app.dataset, { frame: String(i), sentence: String(sentence) });
  const steps = data.frames.map((x) => x.step);
  const common = { steps, current: f.step, axis: S.axisSteps, now: S.chartNow };
  const lossTop = Math.max(1, ...curves.loss.map((p) => p[1]));
  charts.loss.draw({ ...common, title: S.lossTitle, series: [{ key: 'loss', name: S.lossName, points: curves.loss }], reference: null,
    yMax: Math.ceil(lossTop), ticks: niceTicks(Math.ceil(lossTop)), fmt: String, value: fixed(3) });
  const bleuTop = Math.max(5, ...curves.bleu.map((p) => p[1]));
  charts.bleu.draw({ ...common, title: S.bleuTitle, series: [{ key: 'bleu', name: S.bleuName, points: curves.bleu }], reference: null,
    yMax: Math.ceil(bleuTop / 5) * 5, ticks: niceTicks(Math.ceil(bleuTop / 5) * 5), fmt: String, value: fixed(1) });
  charts.align.draw({ ...common, title: S.alignTitle,
    series: [{ key: 'align', name: S.alignAll, points: curves.align }, { key: 'off-diagonal', name: S.alignOff, points: curves.offDiagonal }],
    reference: { key: 'diagonal', name: S.alignDiagonal, value: curves.diagonal },
    yMax: 100, ticks: [0, 25, 50, 75, 100], fmt: (v) => `${v}%`, value: pct });
  for (const tr of $('numbers-table').querySelectorAll('tbody tr')) {
    if (Number(tr.dataset.frame) === i) tr.setAttribute('aria-current', 'true');
    else tr.removeAttribute('aria-current');
  }
}

// Which run: the file's name and note, its config and recipe, the command that made it.
function renderRun() {
  const f = runFacts(data);
  const parts = [h('p', { 'data-role': 'run-line', text: S.runLine(f) })];
  if (f.note) parts.push(h('p', { 'data-role': 'run-note', lang: 'en', text: f.note }));
  const origin = { none: S.guidedNo, guided: S.guidedYes(f.guided), init: S.initFrom(f.init) }[f.origin];
  if (origin) parts.push(h('p', { 'data-role': 'run-guided', 'data-origin': f.origin, text: origin }));
  if (f.command) parts.push(h('p', {}, `${S.commandLabel}: `, h('code', { class: 'lr-command', 'data-role': 'run-command', lang: 'en', text: f.command })));
  $('run').replaceChildren(...parts);
  $('attribution').textContent = f.attribution && !/[.!?。]$/.test(f.attribution) ? `${f.attribution}.` : f.attribution;
  $('attribution').setAttribute('lang', 'en');
}

function renderTable() {
  $('numbers-table').replaceChildren(
    h('thead', {}, h('tr', {}, [S.colStep, S.colMinutes, S.colLoss, S.colBleu, S.colAlign, S.colOff].map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, data.frames.map((fr, i) => {
      const f = frameStats(fr);
      return h('tr', { 'data-frame': i, 'data-step': f.step }, h('td', { text: int(f.step) }), h('td', { text: fixed(1)(f.minutes) }),
        h('td', { text: fixed(3)(f.loss) }), h('td', { text: fixed(1)(f.bleu) }), h('td', { text: pct(f.align) }), h('td', { text: pct(f.offDiagonal) }));
    })),
  );
}

function render() {
  if (!data) return;
  renderRun();
  renderTable();
  player.setFrames(data.frames.length, frameLabel);
  showFrame();
}

async function load() {
  const src = dataUrl(location);
  let detail = src.error === undefined ? null : S.errorOrigin(src.error);
  if (detail === null) {
    try {
      const res = await fetch(src.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      data = checkTimelapse(await res.json());
    } catch (e) {
      detail = S.errorFetch(src.url, e.message);
    }
  }
  if (detail !== null) {
    $('loading').hidden = true;
    showErrorBox($('error'), S, S.errorTitle, detail);
    app.dataset.state = 'error';
    return;
  }
  hideErrorBox($('error'));
  $('loading').hidden = true;
  curves = curvesOf(data);
  view.setData(data);
  const k = Number(q.get('sentence'));
  sentence = Number.isInteger(k) && k >= 1 && k <= data.sentences.length ? k - 1 : 0;
  player.setFrames(data.frames.length, frameLabel);
  const fr = Number(q.get('frame'));
  player.go(Number.isInteger(fr) && fr >= 1 && fr <= data.frames.length ? fr - 1 : 0);
  render();
  app.dataset.state = 'ready';
}

function setLanguage(next) {
  lang = next;
  S = { ...STRINGS[lang], ...LEARN_STRINGS[lang] };
  applyStrings(document, S, lang);
  labelLangToggle($('lang'), S, lang);
  document.title = `bahdanau-live · ${S.title}`;
  player.setStrings(S);
  view.setStrings(S);
  render();
  for (const role of ['back', 'train-nav', 'why-nav']) {
    const a = $(role);
    const url = new URL(a.getAttribute('href').split('?')[0], location.href);
    if (lang === 'zh') url.searchParams.set('lang', 'zh');
    a.href = url.href;
  }
}

$('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
addEventListener('pagehide', () => player.stop());
setLanguage(lang);
load();
