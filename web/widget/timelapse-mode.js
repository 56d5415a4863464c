// <attention-translator mode="timelapse">: learn.html's recorded training run ("Watch attention
// learn to align", issue 23) inside the widget's shadow root, composed from the same views
// (learn/*.js): the frames' player with its settles marks, the chosen sentence's recorded
// matrix, and the loss, BLEU and alignment charts with the current frame marked.
//
// It loads no translation model: every cell and number is one frame of the timelapse file
// (scripts/nmt/timelapse.py's format), fetched once, so a course page can show training
// without the engine, and it must never draw anything the file does not hold.
//
// Attributes, read through host.attribute (raw: they are not the single figure's, so the
// element's table does not read them): data (the file: a URL or path resolved against the host
// page, as model URLs are; default data/timelapse-en-fr.json next to bahdanau-widget.js, as
// model names are), sentence (from 1, default 1), frame (from 1, default the last; watched, so
// a script can move it), speed (frames per second while playing: 1, 2, 4, 10, or instant, the
// last frame at once; absent or any other value: learn.html's pace), controls (none: no play
// button, slider or sentence chooser, for a fixed or autoplaying figure; minimal and full: all
// of them), autoplay and lang through the element. Hooks: data-role="timelapse" with data-frame
// and data-sentence (from 0, as learn.html's), and the learn views' own. Events: step {frame,
// frames, step, sentence} at each frame or sentence shown (frame and sentence from 0, step the
// checkpoint's training step, frames their count): plain data, so embed.js can post it on.

import { h } from '../ui/dom.js';
import { SPEEDS_MS, SPEED_NAMES } from '../ui/player.js';
import { STRINGS } from '../ui/strings.js';
import { niceTicks } from '../ui/ticks.js';
import { FrameChart } from '../learn/chart.js';
import { FramePlayer } from '../learn/player.js';
import { SentenceView } from '../learn/sentence-view.js';
import { LEARN_STRINGS } from '../learn/strings.js';
import { DEFAULT_DATA, checkTimelapse, curvesOf, frameStats, runFacts, settleMarks } from '../learn/timelapse.js';

const HERE = new URL('../', import.meta.url); // where bahdanau-widget.js is
// learn.css is the page's sheet, linked rather than copied (its line colours are declared on
// .widget too, keyed on the widget's theme); timelapse-mode.css only fits it into the widget.
const STYLES = ['learn.css', 'widget/timelapse-mode.css'];

// What learn/strings.js has no words for: a data attribute that is not a URL.
const OWN = {
  en: { badData: (v) => `data="${v}" is not an http(s) URL or a path to a timelapse file.` },
  zh: { badData: (v) => `data="${v}" 不是 http(s) 网址，也不是时间线文件的路径。` },
};

// The data attribute -> the file's URL, or null for what the widget refuses as a model URL too
// (javascript:, data:, a URL that does not parse).
export function resolveTimelapseData(value) {
  const v = (value ?? '').trim();
  if (!v) return new URL(DEFAULT_DATA, HERE).href;
  let url;
  try {
    url = new URL(v, document.baseURI);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

// The speed attribute -> ms between frames (its names, in words per second elsewhere, are
// frames per second here; instant: 0), or null for learn.html's pace: absent or any other value,
// since the element's own default (2 words per second) was chosen for words, not snapshots.
export function frameMs(value) {
  const i = SPEED_NAMES.indexOf((value ?? '').trim());
  return i < 0 ? null : SPEEDS_MS[i];
}

// A 1-based attribute value -> an index from 0 into n things; absent or bad: fallback.
function index(value, n, fallback) {
  if (value === null || !/^\s*\d{1,6}\s*$/.test(value)) return fallback;
  return Math.max(0, Math.min(n - 1, Number(value) - 1));
}

const fixed = (d) => (v) => (Number.isFinite(v) ? v.toFixed(d) : '—');
const pct = (v) => (Number.isFinite(v) ? `${v.toFixed(1)}%` : '—');

export class TimelapseMode {
  #host;
  #lang;
  #S;
  #e = {};
  #player;
  #sentences;
  #charts;
  #url = null; // the file loaded (or loading)
  #data = null;
  #curves = null;
  #sentence = 0;
  #loading = null;
  #active = false; // between run() and stop(): another mode on show must not be disturbed

  // The element's hooks for its two-model modes: pause on disconnect, and the speed, read here
  // from the attribute itself (the element's index cannot tell an absent speed from "2").
  view = { player: { pause: () => this.#player.stop(), setSpeed: () => this.#pace() } };

  constructor(container, host, { lang, controls }) {
    this.#host = host;
    this.#lang = lang;
    this.#S = this.#strings();
    const e = this.#e;
    e.title = h('p', { class: 'tl-title' });
    e.intro = h('p', { class: 'tl-intro', 'data-role': 'timelapse-intro' });
    e.player = h('div', { 'data-role': 'player-root' });
    e.stats = h('p', { class: 'lr-stats', 'data-role': 'stats' });
    e.sentence = h('div', { 'data-role': 'sentence-root' });
    e.curves = h('div', { class: 'lr-figures', 'data-role': 'curves-root' });
    e.box = h('div', { class: 'tl-root', 'data-role': 'timelapse' }, e.title, e.intro, e.player, e.stats, e.sentence, e.curves);
    container.append(...STYLES.map((f) => h('link', { rel: 'stylesheet', href: new URL(f, HERE).href })), e.box);
    this.#player = new FramePlayer(e.player, { strings: this.#S, onFrame: () => this.#shown() });
    this.#sentences = new SentenceView(e.sentence, { strings: this.#S, onChoose: (k) => { this.#sentence = k; this.#shown(); } });
    this.#charts = Object.fromEntries(['loss', 'bleu', 'align'].map((k) => [k, new FrameChart(e.curves, { role: `${k}-chart` })]));
    // The element's data-playing follows the play button, which also stops by itself at the end.
    const play = e.player.querySelector('[data-role="play"]');
    new MutationObserver(() => this.#position()).observe(play, { attributes: true, attributeFilter: ['data-playing'] });
    host.watch(['data', 'frame'], (name) => {
      if (!this.#active) return;
      if (name === 'frame' && this.#data) this.#goFrame();
      else this.run();
    });
    this.#label();
    this.setControls(controls);
  }

  #strings() {
    return { ...STRINGS[this.#lang], ...LEARN_STRINGS[this.#lang], ...OWN[this.#lang] };
  }

  #label() {
    const S = this.#S;
    this.#e.title.textContent = S.title;
    this.#e.intro.textContent = S.intro;
  }

  setLang(lang) {
    if (lang === this.#lang) return;
    this.#lang = lang;
    this.#S = this.#strings();
    this.#label();
    this.#player.setStrings(this.#S);
    this.#sentences.setStrings(this.#S);
    if (this.#data) {
      this.#player.setFrames(this.#data.frames.length, (i) => this.#frameLabel(i));
      this.#show();
    }
  }

  // none: the figure without its controls (a course page's autoplaying or fixed snapshot);
  // minimal and full keep them all.
  setControls(controls) {
    const on = controls !== 'none';
    this.#player.showControls(on);
    this.#sentences.showChooser(on);
  }

  stop() {
    this.#active = false;
    this.#loading = null; // a load in flight is dropped: it would set the state of another mode
    this.#player.stop();
  }

  // autoplay, as the element's step effect passes it: plays on from the frame shown (from the
  // first where that is the last, the default).
  applyStep({ autoplay }) {
    if (autoplay && this.#data && !this.#player.playing) this.#player.start();
  }

  // models: null (this mode loads none); settings: the element's (autoplay only applies).
  async run(models, { autoplay } = {}) {
    const host = this.#host;
    this.#active = true;
    const raw = host.attribute('data');
    const url = resolveTimelapseData(raw);
    if (!url) {
      this.#url = null;
      this.#data = null;
      host.showError(this.#S.badData(raw));
      return;
    }
    if (url !== this.#url || !this.#data) {
      this.#url = url;
      this.#data = null;
      this.#player.stop();
      host.setState('loading');
      host.progress(null);
      const loading = load(url);
      this.#loading = loading;
      let data;
      try {
        data = await loading;
      } catch (err) {
        if (this.#loading === loading) host.showError(`${this.#S.errorTitle}: ${this.#S.errorFetch(url, err.message)}`);
        return;
      }
      if (this.#loading !== loading) return; // the data attribute changed meanwhile
      this.#data = data;
      this.#curves = curvesOf(data);
      this.#sentences.setData(data);
      host.setState('ready');
      host.dispatch('ready', { info: runFacts(data), engine: null });
    }
    const data = this.#data;
    this.#sentence = index(host.attribute('sentence'), data.sentences.length, 0);
    this.#player.setFrames(data.frames.length, (i) => this.#frameLabel(i));
    const f = runFacts(data);
    host.status(this.#S.runLine(f), 'timelapse');
    host.hideError();
    host.setState('done');
    this.#pace();
    this.#goFrame();
    if (autoplay) this.#player.start();
  }

  #pace() {
    this.#player.setPace(frameMs(this.#host.attribute('speed')));
  }

  #goFrame() {
    this.#player.stop();
    this.#player.go(index(this.#host.attribute('frame'), this.#data.frames.length, this.#data.frames.length - 1));
  }

  #frameLabel(i) {
    const f = frameStats(this.#data.frames[i]);
    return this.#S.frameValue(i + 1, this.#data.frames.length, f.step, f.minutes);
  }

  // A frame or sentence on show: drawn, and said in a step event.
  #shown() {
    this.#show();
    const data = this.#data;
    if (!data) return;
    const i = this.#player.frame;
    this.#host.dispatch('step', { frame: i, frames: data.frames.length, step: data.frames[i].step, sentence: this.#sentence });
  }

  #position() {
    this.#host.position({ position: this.#player.frame, playing: this.#player.playing });
  }

  // The current frame in every view; as learn.js draws it, from the file's numbers only.
  #show() {
    const data = this.#data;
    if (!data) return;
    const S = this.#S;
    const i = this.#player.frame;
    const f = data.frames[i];
    const c = this.#curves;
    this.#sentences.show(i, this.#sentence);
    this.#player.setMarks(settleMarks(data), this.#sentence);
    this.#e.stats.textContent = S.stats(frameStats(f));
    Object.assign(this.#e.box.dataset, { frame: String(i), sentence: String(this.#sentence) });
    this.#position();
    const common = { steps: data.frames.map((x) => x.step), current: f.step, axis: S.axisSteps, now: S.chartNow };
    const top = (points, unit) => Math.ceil(Math.max(unit, ...points.map((p) => p[1])) / unit) * unit;
    const loss = top(c.loss, 1);
    const bleu = top(c.bleu, 5);
    this.#charts.loss.draw({ ...common, title: S.lossTitle, series: [{ key: 'loss', name: S.lossName, points: c.loss }],
      reference: null, yMax: loss, ticks: niceTicks(loss), fmt: String, value: fixed(3) });
    this.#charts.bleu.draw({ ...common, title: S.bleuTitle, series: [{ key: 'bleu', name: S.bleuName, points: c.bleu }],
      reference: null, yMax: bleu, ticks: niceTicks(bleu), fmt: String, value: fixed(1) });
    this.#charts.align.draw({ ...common, title: S.alignTitle,
      series: [{ key: 'align', name: S.alignAll, points: c.align }, { key: 'off-diagonal', name: S.alignOff, points: c.offDiagonal }],
      reference: { key: 'diagonal', name: S.alignDiagonal, value: c.diagonal },
      yMax: 100, ticks: [0, 25, 50, 75, 100], fmt: (v) => `${v}%`, value: pct });
  }
}

// The file, checked -> its data; or throws: the HTTP status, JSON's or checkTimelapse's words.
async function load(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return checkTimelapse(await res.json());
}
