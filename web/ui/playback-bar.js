// The control bar of the two-model views (compare-view.js, bottleneck-view.js): first, back,
// play/pause, forward, last, a position line and a speed slider, all moving one Player. Built
// inside the view's own tree, so it works in a page and in the widget's shadow root.
//
// Automation hooks (stable): data-role="first", "step-back", "play", "step-forward", "last",
// "position" and "speed".

import { h } from './dom.js';
import { icon } from './icons.js';
import { SPEEDS_MS, syncControls, wireControls } from './player.js';

export class PlaybackBar {
  element;
  #player;
  #e = {};

  constructor(player) {
    this.#player = player;
    const e = this.#e;
    Object.assign(e, controlParts({ button: 'bl-cmp-btn', position: 'bl-cmp-position', speed: 'bl-cmp-speed' }));
    this.element = h('div', { class: 'bl-cmp-controls', role: 'group' },
      e.first, e.back, e.play, e.forward, e.last, e.position, e.speedLabel);
    wireControls(e, player);
  }

  // 'full' (also first, last and speed), 'minimal' or 'none'.
  setMode(mode) {
    const e = this.#e;
    this.element.hidden = mode === 'none';
    for (const x of [e.first, e.last, e.speedLabel]) x.hidden = mode !== 'full';
  }

  // S: strings.js's table (playback, first, back, forward, last, speed).
  setStrings(S) {
    const e = this.#e;
    this.element.setAttribute('aria-label', S.playback);
    for (const [el, key] of [[e.first, 'first'], [e.back, 'back'], [e.forward, 'forward'], [e.last, 'last']]) {
      el.setAttribute('aria-label', S[key]);
      el.title = S[key];
    }
    e.speedLabel.firstChild.textContent = S.speed;
  }

  // The buttons in line with the player, and the position line's words.
  render(S, position) {
    syncControls(this.#e, this.#player, S);
    this.#e.position.textContent = position;
  }
}

// Left and right arrows anywhere on the page step the player, except where the arrows mean
// something else: text fields, a matrix's cells, and whatever `skip` (a selector) names.
export function stepWithArrows(doc, player, skip = '') {
  const mine = ['textarea', 'input', 'select', '[data-role="matrix"]', skip].filter(Boolean).join(', ');
  doc.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (e.target.closest?.(mine)) return;
    if (e.key === 'ArrowLeft') player.back();
    else if (e.key === 'ArrowRight') player.forward();
    else return;
    e.preventDefault();
  });
}

// A control bar's parts, with the embedder's classes ({button, position, speed}; attrs: more
// attributes for every button): first, back, play/pause, forward, last, position, and the
// speed slider in its label (speedLabel; its first child holds the label's text).
export function controlParts(classes, attrs = {}) {
  const button = (role, name) =>
    h('button', { type: 'button', class: classes.button, 'data-role': role, ...attrs }, icon(name), name === 'play' ? icon('pause') : null);
  const speed = h('input', { type: 'range', min: '0', max: String(SPEEDS_MS.length - 1), step: '1', 'data-role': 'speed' });
  return {
    first: button('first', 'first'),
    back: button('step-back', 'back'),
    play: button('play', 'play'),
    forward: button('step-forward', 'forward'),
    last: button('last', 'last'),
    position: h('span', { class: classes.position, 'data-role': 'position' }),
    speed,
    speedLabel: h('label', { class: classes.speed }, h('span', classes.speedText ?? {}), speed),
  };
}
