// The training page's controls: what to train (scoring, size, the watched sentence), the
// buttons that start, pause, resume and reset it, and the line of numbers (steps, steps per
// second, loss). The choices are fixed while a run exists: a run trains one model; Reset ends
// it, and the next Train starts a fresh one with whatever is chosen then.
//
// Automation hooks (stable): data-role="scoring" (radios, values additive | scaled_dot | none),
// "preset" (select: tiny | small), "watch" (select: the sentence's index), "train", "pause"
// (its data-action says pause | resume), "reset", "stats" (data-steps, data-steps-per-second),
// "train-state".

import { h } from '../ui/dom.js';

export const SCORINGS = ['additive', 'scaled_dot', 'none'];
export const PRESETS = ['tiny', 'small']; // the default first
// The size train.html trains unless ?preset= says otherwise (train/params.js); scripts/bench's
// training rows measure it too.
export const DEFAULT_PRESET = PRESETS[0];
const SCORING_KEYS = { additive: 'scoringAdditive', scaled_dot: 'scoringDot', none: 'scoringNone' };
const PRESET_KEYS = { small: 'presetSmall', tiny: 'presetTiny' };
const STATE_KEYS = { ready: 'stateIdle', loading: 'stateLoading', training: 'stateTraining', paused: 'statePaused', stopped: 'stateStopped', error: 'stateError' };

export class TrainControls {
  #T;
  #e = {};
  #state = 'ready';
  #progress = null;

  // root: the element that holds the form. choices: {scoring, preset, watch (index)};
  // sentences: the watched sentences' English. on: {train, pause, resume, reset, watch(index),
  // choice() (the scoring or the size changed)}.
  constructor(root, { strings, choices, sentences, on }) {
    this.#T = strings;
    const e = this.#e;
    e.legend = h('legend');
    e.radios = SCORINGS.map((value) => {
      const input = h('input', { type: 'radio', name: 'scoring', value, 'data-role': 'scoring', checked: value === choices.scoring,
        on: { change: () => on.choice() } });
      const text = h('span');
      return { value, input, text, label: h('label', {}, input, text) };
    });
    e.scoring = h('fieldset', { class: 'segmented tr-scoring' }, e.legend, e.radios.map((r) => r.label));
    e.presetText = h('span');
    e.preset = h('select', { 'data-role': 'preset', on: { change: () => on.choice() } }, PRESETS.map((value) => h('option', { value })));
    e.preset.value = choices.preset;
    e.watchText = h('span');
    e.watch = h('select', { 'data-role': 'watch', on: { change: () => on.watch(Number(e.watch.value)) } },
      sentences.map((text, i) => h('option', { value: String(i), lang: 'en', text })));
    e.watch.value = String(choices.watch);
    e.train = h('button', { type: 'button', class: 'primary', 'data-role': 'train', on: { click: () => on.train() } });
    e.pause = h('button', { type: 'button', 'data-role': 'pause', disabled: true,
      on: { click: () => (this.#state === 'paused' ? on.resume() : on.pause()) } });
    e.reset = h('button', { type: 'button', 'data-role': 'reset', disabled: true, on: { click: () => on.reset() } });
    e.state = h('span', { class: 'tr-state', 'data-role': 'train-state' });
    e.stats = h('p', { class: 'tr-stats', 'data-role': 'stats', 'data-steps': '0', role: 'status', 'aria-live': 'off' });
    e.hint = h('p', { class: 'hint' });
    e.setup = h('div', { class: 'tr-setup' }, e.scoring,
      h('label', { class: 'tr-field' }, e.presetText, e.preset),
      h('label', { class: 'tr-field' }, e.watchText, e.watch));
    root.replaceChildren(e.setup, h('div', { class: 'tr-buttons' }, e.train, e.pause, e.reset, e.state), e.stats, e.hint);
    this.setStrings(strings);
  }

  get choices() {
    return { scoring: this.#e.radios.find((r) => r.input.checked)?.value ?? 'additive', preset: this.#e.preset.value, watch: Number(this.#e.watch.value) };
  }

  get buttons() {
    return { train: this.#e.train, pause: this.#e.pause, reset: this.#e.reset };
  }

  setStrings(T) {
    this.#T = T;
    const e = this.#e;
    e.legend.textContent = T.scoringLegend;
    for (const r of e.radios) r.text.textContent = T[SCORING_KEYS[r.value]];
    e.presetText.textContent = T.presetLabel;
    for (const o of e.preset.options) o.textContent = T[PRESET_KEYS[o.value]];
    e.watchText.textContent = T.watchLabel;
    e.train.textContent = T.train;
    e.reset.textContent = T.reset;
    e.hint.textContent = T.cancelHint;
    this.setState(this.#state);
    this.setProgress(this.#progress);
  }

  // state: 'ready' (no run: the page's settled state, as the site's other pages say it) or a
  // run's state.
  setState(state) {
    this.#state = state;
    const e = this.#e;
    const running = state !== 'ready';
    for (const r of e.radios) r.input.disabled = running;
    e.preset.disabled = running;
    e.train.disabled = running;
    e.pause.disabled = !['training', 'paused'].includes(state);
    e.reset.disabled = !running;
    e.pause.dataset.action = state === 'paused' ? 'resume' : 'pause';
    e.pause.textContent = state === 'paused' ? this.#T.resumeTraining : this.#T.pauseTraining;
    e.state.textContent = this.#T[STATE_KEYS[state]] ?? state;
  }

  // p: a 'progress' report, or null (no run).
  setProgress(p) {
    this.#progress = p;
    const e = this.#e;
    e.stats.textContent = p ? this.#T.stats(p) : this.#T.statsNone;
    e.stats.dataset.steps = String(p?.steps ?? 0);
    e.stats.dataset.stepsPerSecond = String(p?.stepsPerSecond ?? 0);
  }
}
