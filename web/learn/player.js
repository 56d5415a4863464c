// The frames' player: a play button, a native range input over the frames (arrows, Page keys,
// Home and End move it, as any slider), the frame's step and minutes in words, and under the
// slider a mark at each sentence's settles frame, the chosen sentence's tall. Play advances one
// frame at a time and stops at the last; pressed there, it starts again from the first.
// Home and End also work from the play button. A move of the slider by hand stops playing. The marks are drawn, not focusable: the line
// under the matrix says the same in words (learn/sentence-view.js).
//
// learn.html plays at FRAME_MS; the widget's timelapse mode sets its speed attribute's pace
// (setPace) and can hide the controls for a fixed or autoplaying figure (showControls).
//
// Automation hooks (stable): data-role="play" (data-playing), "frame-slider" (value, max),
// "frame-value"; each mark data-role="settle-mark" with data-sentence, data-frame, and
// data-chosen="true" on the chosen sentence's.

import { h } from '../ui/dom.js';

const FRAME_MS = 650;

export class FramePlayer {
  #S;
  #n = 0;
  #label = () => '';
  #onFrame;
  #timer = 0;
  #ms = FRAME_MS; // between two frames while playing; 0: straight to the last
  #e = {};

  // onFrame(i): the frame to show, at every move. label(i) -> the frame's words.
  constructor(root, { strings, onFrame }) {
    this.#S = strings;
    this.#onFrame = onFrame;
    const e = this.#e;
    e.play = h('button', { type: 'button', class: 'lr-play', 'data-role': 'play', 'data-playing': 'false',
      on: { click: () => this.toggle(), keydown: (ev) => this.#homeEnd(ev) } });
    e.range = h('input', { id: 'lr-frame', type: 'range', min: '0', max: '0', step: '1', value: '0', 'data-role': 'frame-slider',
      'aria-describedby': 'lr-frame-value lr-marks-legend', on: { input: () => { this.stop(); this.#moved(); } } });
    e.label = h('label', { for: 'lr-frame', class: 'lr-slider-label' });
    e.value = h('output', { id: 'lr-frame-value', class: 'lr-frame-value', 'data-role': 'frame-value', for: 'lr-frame' });
    e.marks = h('div', { class: 'lr-marks', 'aria-hidden': 'true' });
    e.legend = h('p', { id: 'lr-marks-legend', class: 'lr-marks-legend hint' });
    e.wrap = h('div', { class: 'lr-range-wrap' }, e.range, e.marks);
    root.replaceChildren(h('div', { class: 'lr-player' },
      e.play,
      h('div', { class: 'lr-track' }, e.label, e.wrap, e.value),
    ), e.legend);
    this.setStrings(strings);
  }

  get frame() {
    return Number(this.#e.range.value);
  }

  get playing() {
    return this.#timer !== 0;
  }

  setStrings(S) {
    this.#S = S;
    this.#e.label.textContent = S.sliderLabel;
    this.#e.legend.textContent = S.marksLegend;
    this.#renderPlay();
    this.#renderValue();
  }

  // n frames, each named by label(i).
  setFrames(n, label) {
    this.#n = n;
    this.#label = label;
    this.#e.range.max = String(Math.max(0, n - 1));
    this.#e.range.disabled = n < 2;
    this.#e.play.disabled = n < 2;
    this.#renderValue();
  }

  // marks: [{sentence, frame, at}] (learn/timelapse.js's settleMarks); chosen: a sentence.
  setMarks(marks, chosen) {
    this.#e.marks.replaceChildren(...marks.map((m) => {
      const el = h('span', { class: `lr-mark${m.sentence === chosen ? ' is-chosen' : ''}`, 'data-role': 'settle-mark',
        'data-sentence': m.sentence, 'data-frame': m.frame, 'data-chosen': String(m.sentence === chosen) });
      el.style.setProperty('--at', String(m.at));
      return el;
    }));
  }

  // Shows frame i (the slider moves there).
  go(i) {
    const n = Math.max(0, Math.min(this.#n - 1, i));
    this.#e.range.value = String(n);
    this.#moved();
  }

  // ms between frames while playing (null: FRAME_MS; 0: the last frame at once), from now on.
  setPace(ms) {
    this.#ms = ms ?? FRAME_MS;
    if (!this.playing) return;
    clearInterval(this.#timer);
    this.#timer = 0;
    if (this.#ms === 0) {
      this.#renderPlay();
      this.go(this.#n - 1);
    } else {
      this.#tick();
    }
  }

  // Off: the play button, the slider with its marks and their legend leave the page (hidden,
  // so out of the tab order and the accessibility tree); the frame's words stay as a caption.
  showControls(on) {
    for (const x of ['play', 'label', 'wrap', 'legend']) this.#e[x].hidden = !on;
  }

  toggle() {
    if (this.playing) this.stop();
    else this.start();
  }

  start() {
    if (this.playing || this.#n < 2) return;
    if (this.#ms === 0) {
      if (this.frame < this.#n - 1) this.go(this.#n - 1);
      return;
    }
    if (this.frame >= this.#n - 1) this.go(0);
    this.#tick();
    this.#renderPlay();
  }

  #tick() {
    this.#timer = setInterval(() => {
      if (this.frame >= this.#n - 1) return this.stop();
      this.go(this.frame + 1);
      if (this.frame >= this.#n - 1) this.stop();
    }, this.#ms);
  }

  stop() {
    clearInterval(this.#timer);
    this.#timer = 0;
    this.#renderPlay();
  }

  #homeEnd(ev) {
    if (ev.key !== 'Home' && ev.key !== 'End') return;
    ev.preventDefault();
    this.stop();
    this.go(ev.key === 'Home' ? 0 : this.#n - 1);
  }

  #moved() {
    this.#renderValue();
    this.#onFrame(this.frame);
  }

  #renderPlay() {
    const { play } = this.#e;
    play.textContent = this.playing ? this.#S.pause : this.#S.play;
    play.dataset.playing = String(this.playing);
  }

  #renderValue() {
    const text = this.#n ? this.#label(this.frame) : '';
    this.#e.value.textContent = text;
    this.#e.range.setAttribute('aria-valuetext', text || '—');
  }
}
