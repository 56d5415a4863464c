// Two decoders, one playback position. Each model's steps arrive at their own pace (two
// workers on the page, two iterators in the widget); the Player gets combined steps
// {index, a, b} in order, step k only once both sides have either sent their step k or
// finished, so position k always means "word k of each". A side that has finished has null
// for the steps beyond its end: it keeps its full matrix while the other continues.

import { isRow } from '../engine/steps.js';

export const SIDES = ['a', 'b'];


export class Lockstep {
  #player;
  #steps = { a: [], b: [] };
  #done = { a: false, b: false };

  constructor(player) {
    this.#player = player;
  }

  reset({ play = true } = {}) {
    this.#steps = { a: [], b: [] };
    this.#done = { a: false, b: false };
    this.#player.reset({ play });
  }

  push(side, step) {
    this.#steps[side].push(step);
    this.#flush();
  }

  finish(side) {
    if (this.#done[side]) return;
    this.#done[side] = true;
    this.#flush();
    if (this.#done.a && this.#done.b && !this.#player.finished) this.#player.finish();
  }

  get finished() {
    return this.#done.a && this.#done.b;
  }

  // All steps one side has sent so far, ahead of what the player shows.
  received(side) {
    return this.#steps[side];
  }

  #flush() {
    for (;;) {
      const k = this.#player.steps.length;
      const has = (s) => k < this.#steps[s].length;
      const settled = (s) => has(s) || this.#done[s];
      if (!settled('a') || !settled('b') || (!has('a') && !has('b'))) return;
      this.#player.push({ index: k, a: this.#steps.a[k] ?? null, b: this.#steps.b[k] ?? null });
    }
  }
}

// The rows one side shows at a player position: its rows among steps 0..position. rowOf(step)
// gives a row's weights (a Transformer's picked layer and head; by default the step's alpha),
// ownOf(step) an edited row's own (the model's softmax's, which an attention edit replaced).
export function rowsAt(steps, position, side, rowOf = (st) => st.alpha, ownOf = (st) => st.ownAlpha ?? null) {
  return steps
    .slice(0, position + 1)
    .map((st) => st[side])
    .filter(isRow)
    .map((st) => ({ word: st.word, weights: rowOf(st), edited: Boolean(st.edited), own: st.edited ? ownOf(st) : null }));
}
