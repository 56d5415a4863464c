// "Translate with it now": any sentence through the model being trained, as it is at that
// moment, in the translator's own matrix and step panel (ui/figure.js over ui/matrix.js and
// ui/step-panel.js, as index.html draws them). The run's snapshot (an f32 model file) is loaded
// into an engine worker of its own (engine/client.js, the main page's), which streams every
// step with its scores, weights and candidates: the step panel needs them, and a snapshot
// translated there is exactly what the main page and the CLI give for the same file.
// Training goes on meanwhile, in its own worker; a new snapshot is taken only when the run
// has moved on since the last one.
//
// Automation hooks (stable): data-role="try" carries data-state ("idle" | "loading" |
// "decoding" | "done" | "error") and data-steps (the snapshot's step count); inside it
// data-role="try-input", "try-go", "output" (with data-text once decoded), the matrix and the
// step panel's own hooks.

import { EngineClient } from '../engine/client.js';
import { h, pieces } from '../ui/dom.js';
import { Figure } from '../ui/figure.js';
import { AttentionMatrix } from '../ui/matrix.js';
import { controlParts } from '../ui/playback-bar.js';
import { StepPanel } from '../ui/step-panel.js';

export class TryIt {
  #root;
  #S; // ui/strings.js's table (the figure's words)
  #T; // train/strings.js's
  #e = {};
  #figure;
  #client = null;
  #loaded = null; // {steps, info, engine}: the snapshot in the worker
  #snapshot;
  #onError;
  #simd;
  #job = 0;
  #sentence = null;

  // snapshot(): -> Promise<{bytes, steps}> of the run now; onError(title, message).
  constructor(root, { strings, trainStrings, snapshot, onError, simd = 'auto' }) {
    this.#root = root;
    this.#S = strings;
    this.#T = trainStrings;
    this.#snapshot = snapshot;
    this.#onError = onError;
    this.#simd = simd;
    const e = this.#e;
    e.label = h('label', { for: 'try-input', class: 'field-label' });
    e.input = h('input', { id: 'try-input', type: 'text', 'data-role': 'try-input', spellcheck: 'false', autocomplete: 'off', value: 'The black cat is sleeping.' });
    e.go = h('button', { type: 'submit', class: 'primary', 'data-role': 'try-go', disabled: true });
    e.form = h('form', { class: 'tr-try-form', novalidate: true, on: { submit: (ev) => { ev.preventDefault(); this.translate(); } } },
      e.label, h('div', { class: 'input-row' }, e.input, e.go));
    e.waiting = h('p', { class: 'hint', 'data-role': 'try-waiting' });
    e.from = h('p', { class: 'hint', 'data-role': 'try-from', 'aria-live': 'polite' });
    e.output = h('dd', { class: 'tokens output', 'data-role': 'output', lang: 'fr' });
    e.outLabel = h('dt');
    e.matrix = h('div');
    e.panel = h('div');
    const c = controlParts({ button: 'icon', position: 'position', speed: 'speed' });
    c.play.classList.add('play'); // app.css shows its play or its pause icon by data-playing
    e.controls = c;
    e.player = h('div', { class: 'player tr-try-player', role: 'group' },
      h('div', { class: 'player-buttons' }, c.first, c.back, c.play, c.forward, c.last), c.position, c.speedLabel);
    e.figureBox = h('div', { class: 'tr-try-figure' },
      h('div', { class: 'tr-try-result' }, h('dl', { class: 'sentences' }, e.outLabel, e.output), e.player, e.matrix),
      h('div', { class: 'tr-try-steps' }, e.panel));
    e.figureBox.hidden = true;
    root.dataset.role = 'try';
    root.dataset.state = 'idle';
    root.replaceChildren(e.form, e.waiting, e.from, e.figureBox);
    const matrix = new AttentionMatrix(e.matrix, { strings });
    const panel = new StepPanel(e.panel, { strings });
    this.#figure = new Figure({
      controls: { first: c.first, back: c.back, play: c.play, forward: c.forward, last: c.last, speed: c.speed, position: c.position },
      matrix, panel, output: e.output, host: root, strings,
      info: () => this.#loaded?.info ?? null,
      wholeText: () => (this.#sentence?.result ? { text: this.#sentence.result.text, words: this.#sentence.result.targetTokens.length } : null),
      decodingNote: true,
    });
    this.setStrings(strings, trainStrings);
  }

  setStrings(S, T) {
    this.#S = S;
    this.#T = T;
    const { e } = this;
    e.label.textContent = T.tryLabel;
    e.go.textContent = T.tryButton;
    e.waiting.textContent = T.tryWaiting;
    e.outLabel.textContent = S.translation;
    e.player.setAttribute('aria-label', S.playback);
    for (const key of ['first', 'back', 'forward', 'last']) {
      e.controls[key].setAttribute('aria-label', S[key]);
      e.controls[key].title = S[key];
    }
    e.controls.speedLabel.firstChild.textContent = S.speed;
    if (this.#loaded) e.from.textContent = T.tryFrom(this.#loaded.steps);
    this.#figure.setStrings(S);
  }

  get e() {
    return this.#e;
  }

  // Whether there is a model to translate with (training has started).
  setAvailable(yes) {
    this.#e.go.disabled = !yes;
    this.#e.waiting.hidden = yes;
  }

  async translate() {
    const text = this.#e.input.value;
    if (!text.trim()) {
      this.#e.input.focus();
      return;
    }
    const mine = ++this.#job;
    const live = () => mine === this.#job;
    const root = this.#root;
    try {
      root.dataset.state = 'loading';
      const snap = await this.#snapshot();
      if (!live()) return;
      if (!this.#loaded || this.#loaded.steps !== snap.steps) {
        this.#client ??= new EngineClient();
        const { info, engine } = await this.#client.load({ model: snap.bytes, simd: this.#simd });
        if (!live()) return;
        this.#loaded = { steps: snap.steps, info, engine };
      }
      this.#e.from.textContent = this.#T.tryFrom(this.#loaded.steps);
      root.dataset.steps = String(this.#loaded.steps);
      root.dataset.state = 'decoding';
      this.#e.figureBox.hidden = false;
      const sentence = { text, sourceTokens: [], pieces: null, result: null };
      this.#sentence = sentence;
      this.#figure.sentence = sentence;
      this.#figure.player.reset({ play: true });
      const { result } = await this.#client.translate(text, {
        onStart: ({ sourceTokens }) => {
          sentence.sourceTokens = sourceTokens;
          this.#figure.reset();
        },
        onStep: (step) => this.#figure.player.push(step),
      });
      if (!live()) return;
      sentence.result = result;
      sentence.pieces = pieces(result.targetTokens, result.text);
      this.#figure.player.finish();
      root.dataset.state = 'done';
    } catch (err) {
      if (err.name === 'AbortError' || !live()) return;
      root.dataset.state = 'error';
      this.#figure.player.finish();
      this.#onError(this.#T.errorTry, err.message);
    }
  }

  // The run was reset: the old snapshot is another model's.
  forget() {
    ++this.#job;
    this.#loaded = null;
    this.#sentence = null;
    this.#client?.cancel();
    this.#e.figureBox.hidden = true;
    this.#e.from.textContent = '';
    this.#root.dataset.state = 'idle';
    delete this.#root.dataset.steps;
  }

  dispose() {
    this.#client?.dispose();
    this.#client = null;
  }
}
