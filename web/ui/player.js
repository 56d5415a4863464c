// Playback of decoding steps: steps arrive as fast as the engine computes them, and the view
// moves through them at the chosen speed, or stays where a teacher stopped it. Owns no DOM, so
// the page and the widget can put their own buttons on it.
//
// position: the index of the step on show (-1 before the first). onChange(player) is called
// after every change. stopsBefore(step): true for a closing step that playback does not move
// onto by itself (the </s> step, whose weights all sit on ⟨/s⟩): play ends on the last word,
// and forward still reaches it.

// Delay between words for each speed setting; 0 shows each step as soon as it arrives.
export const SPEEDS_MS = [1000, 500, 250, 100, 0];
export const DEFAULT_SPEED = 2;
// The same settings by name, in words per second: the widget's speed attribute and the page's
// speed= parameter.
export const SPEED_NAMES = ['1', '2', '4', '10', 'instant'];

export class Player {
  steps = [];
  position = -1;
  playing = false;
  finished = false; // no more steps will arrive
  speed = DEFAULT_SPEED;
  #timer = null;
  #onChange;
  #stopsBefore;

  constructor({ onChange, stopsBefore } = {}) {
    this.#onChange = onChange ?? (() => {});
    this.#stopsBefore = stopsBefore ?? (() => false);
  }

  // The last index playback moves to by itself: the last step, or the one before a closing
  // step (unless that is the only step: an empty translation shows its end).
  get playEnd() {
    const n = this.steps.length;
    return n > 1 && this.#stopsBefore(this.steps[n - 1]) ? n - 2 : n - 1;
  }

  // A new sentence: no steps, playing from the start as they come.
  reset({ play = true } = {}) {
    this.#stop();
    this.steps = [];
    this.position = -1;
    this.finished = false;
    this.playing = play;
    this.#emit();
  }

  push(step) {
    this.steps.push(step);
    this.#schedule();
    this.#emit();
  }

  finish() {
    this.finished = true;
    this.#schedule();
    this.#emit();
  }

  get atEnd() {
    return this.finished && this.position >= this.playEnd;
  }

  play() {
    if (this.atEnd) this.position = -1; // replay from the first word
    this.playing = true;
    this.#schedule();
    this.#emit();
  }

  pause() {
    this.playing = false;
    this.#stop();
    this.#emit();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  // Any manual move pauses: the viewer has taken over.
  seek(i) {
    this.playing = false;
    this.#stop();
    const last = this.steps.length - 1;
    this.position = Math.max(Math.min(0, last), Math.min(last, i));
    this.#emit();
  }

  back() {
    this.seek(this.position - 1);
  }

  forward() {
    this.seek(this.position + 1);
  }

  first() {
    this.seek(0);
  }

  // The last word, as play ends (forward goes on to a closing step).
  last() {
    this.seek(this.playEnd);
  }

  setSpeed(index) {
    this.speed = Math.max(0, Math.min(SPEEDS_MS.length - 1, index));
    if (this.playing) {
      this.#stop();
      this.#schedule();
    }
    this.#emit();
  }

  #schedule() {
    if (!this.playing || this.#timer !== null) return;
    const end = this.playEnd;
    if (this.position < end) {
      // The first word shows at once; later ones wait their turn.
      const delay = this.position < 0 ? 0 : SPEEDS_MS[this.speed];
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (!this.playing) return;
        this.position = SPEEDS_MS[this.speed] === 0 ? this.playEnd : this.position + 1;
        this.#emit();
        this.#schedule();
      }, delay);
    } else if (this.finished) {
      this.playing = false;
      this.#emit();
    }
  }

  #stop() {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #emit() {
    this.#onChange(this);
  }
}

// A control bar ({first, back, play, forward, last, speed} elements, and speedValue where the
// speed's name is shown) brought in line with a player; S holds the play/pause labels and
// speedValues, the speed names.
export function syncControls(e, player, S) {
  const n = player.steps.length;
  e.first.disabled = e.back.disabled = player.position <= 0;
  e.forward.disabled = player.position >= n - 1;
  e.last.disabled = player.position >= player.playEnd;
  e.play.disabled = n === 0;
  e.play.dataset.playing = String(player.playing);
  e.play.setAttribute('aria-label', player.playing ? S.pause : S.play);
  e.play.title = player.playing ? S.pause : S.play;
  e.speed.value = String(player.speed);
  e.speed.setAttribute('aria-valuetext', S.speedValues[player.speed]);
  if (e.speedValue) e.speedValue.textContent = S.speedValues[player.speed];
}

// The same bar's buttons and slider moving the player.
export function wireControls(e, player) {
  e.play.addEventListener('click', () => player.toggle());
  e.back.addEventListener('click', () => player.back());
  e.forward.addEventListener('click', () => player.forward());
  e.first.addEventListener('click', () => player.first());
  e.last.addEventListener('click', () => player.last());
  e.speed.addEventListener('input', () => player.setSpeed(Number(e.speed.value)));
}
