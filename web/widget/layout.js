// <attention-translator layout="slide | article">: the single figure arranged for a lecture
// slide or an article column (the CSS is ui/widget-layout.css; any other value keeps the
// default layout, untouched).
//
// slide: the figure is a 16:9 box as wide as its container (reveal.js's 960×700 slide, a
// 1280×720 one), in large type, with the sentence and the controls beside a matrix whose cells
// are sized to fit the box's height as well as its width (--bl-rows, set here, is the number
// of rows). Arrow keys and the space bar step one word, through the figure's own Player
// (ui/playback-bar.js's stepWithArrows, not a copy). With `panel`, a "Four steps" toggle
// shows the step panel in place of the matrix: the matrix and the four steps side by side do
// not fit a slide in readable type.
// article: a compact figure for a 700–760 px column: smaller cells, the four steps in one row,
// and their explanations behind a toggle.
//
// Decision: keys act only while focus is inside the widget (the box takes focus, tabindex 0,
// and a click anywhere in it focuses it), never on the host page's document. reveal.js, like
// most slide decks, moves between slides on the same arrows and space, from a keydown handler
// on the document: a widget listening on the document would take every slide change away. A
// key the widget handled stops at the widget, so the deck does not also change slide; one
// typed in a text field, a select or the sentence tabs is left alone, and the matrix's cells
// keep their own arrow keys (moving between cells).

import { isRow } from '../engine/steps.js';
import { h } from '../ui/dom.js';
import { stepWithArrows } from '../ui/playback-bar.js';

export const LAYOUTS = ['slide', 'article'];

// The attribute's value -> 'slide', 'article' or null (the default layout); any other value,
// from any author, reads as the default.
export function readLayout(value) {
  const v = (value ?? '').trim().toLowerCase();
  return LAYOUTS.includes(v) ? v : null;
}

// Where Space means something of its own: pressing a button, typing, a tab or a cell.
const OWN_SPACE = 'button, input, textarea, select, a[href], [role="tab"], [role="slider"], [data-role="matrix"]';
// Where the arrows do: text fields (stepWithArrows skips those and the matrix itself), the
// sentence tabs, sliders, and every layout but the slide.
const OWN_ARROWS = '[role="tablist"], [role="slider"], .widget:not([data-layout="slide"])';

export class WidgetLayout {
  #e;
  #player;
  #layout = null;
  #stepsOpen = false;
  #captionsOpen = false;

  // e: the shadow tree's parts (widget/shadow.js); host: the element (its step and done
  // events); player(): the single figure's Player.
  constructor(e, host, player) {
    this.#e = e;
    this.#player = player;
    this.stepsToggle = h('button', { type: 'button', class: 'bl-layout-toggle', 'data-role': 'steps-toggle',
      'aria-pressed': 'false', hidden: true, on: { click: () => this.#setSteps(!this.#stepsOpen) } });
    this.captionsToggle = h('button', { type: 'button', class: 'bl-layout-toggle', 'data-role': 'captions-toggle',
      'aria-expanded': 'false', hidden: true, on: { click: () => this.#setCaptions(!this.#captionsOpen) } });
    e.controls.append(this.stepsToggle);
    e.panelBox.prepend(this.captionsToggle);
    const widget = e.widget;
    stepWithArrows(widget, { back: () => player().back(), forward: () => player().forward() }, OWN_ARROWS);
    widget.addEventListener('keydown', (ev) => this.#onKey(ev));
    for (const type of ['step', 'done']) host.addEventListener(type, () => this.#countRows());
  }

  // layout: readLayout()'s value; panel: the panel attribute; pair: a two-model mode is on
  // show (its own views keep their layout); W: widget-strings.js's words.
  apply(layout, { panel, pair, W }) {
    const e = this.#e;
    this.#layout = pair ? null : layout;
    if (this.#layout) e.widget.dataset.layout = this.#layout;
    else delete e.widget.dataset.layout;
    const slide = [['tabindex', '0'], ['role', 'group'], ['aria-label', W.slideLabel], ['aria-keyshortcuts', 'ArrowLeft ArrowRight Space']];
    for (const [name, value] of slide) {
      if (this.#layout === 'slide') e.widget.setAttribute(name, value);
      else e.widget.removeAttribute(name);
    }
    this.stepsToggle.hidden = !(this.#layout === 'slide' && panel);
    this.captionsToggle.hidden = this.#layout !== 'article';
    this.stepsToggle.textContent = W.stepsToggle;
    this.captionsToggle.textContent = W.captionsToggle;
    this.#setSteps(this.#stepsOpen && this.#layout === 'slide' && panel);
    this.#setCaptions(this.#captionsOpen && this.#layout === 'article');
    this.#countRows();
  }

  // Space steps forward, as the right arrow does (stepWithArrows: the arrows), and Shift+Space
  // back, as in a slide deck; a key the widget handled goes no further, so that the deck does
  // not also act on it.
  #onKey(ev) {
    if (this.#layout !== 'slide') return;
    if (ev.key === ' ' && !ev.altKey && !ev.ctrlKey && !ev.metaKey && !ev.defaultPrevented && !ev.target.closest?.(OWN_SPACE)) {
      if (ev.shiftKey) this.#player().back();
      else this.#player().forward();
      ev.preventDefault();
    }
    if (ev.defaultPrevented && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' '].includes(ev.key)) ev.stopPropagation();
  }

  #setSteps(open) {
    this.#stepsOpen = Boolean(open);
    this.stepsToggle.setAttribute('aria-pressed', String(this.#stepsOpen));
    if (this.#stepsOpen) this.#e.widget.dataset.steps = 'open';
    else delete this.#e.widget.dataset.steps;
  }

  #setCaptions(open) {
    this.#captionsOpen = Boolean(open);
    this.captionsToggle.setAttribute('aria-expanded', String(this.#captionsOpen));
    if (this.#captionsOpen) this.#e.widget.dataset.captions = 'open';
    else delete this.#e.widget.dataset.captions;
  }

  // The slide's cells fit the height the matrix will need: all its rows, known once decoded
  // (the steps arrive far faster than playback shows them), not only those on show yet.
  #countRows() {
    const rows = this.#player().steps.filter(isRow).length;
    this.#e.widget.style.setProperty('--bl-rows', String(Math.max(rows, 4)));
  }
}
