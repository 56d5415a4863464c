// index.html's download bar while the model loads: megabytes so far of the total (the server's
// length, or cache-manifest.json's size when the download is compressed: lib/model-cache.js),
// the time left at the speed so far, then that the engine is starting once the file is in.
// While it loads, the Translate button says why it waits, and a sentence sent meanwhile is
// shown as queued beside the bar, which is scrolled into view (a phone's keyboard hides it).

// The speed is measured over the last few seconds, so a slow start (the connection's first
// round trips) does not inflate the estimate for the rest of the download.
const WINDOW_MS = 4000;

// $: the page's data-role lookup (progress, progress-label, progress-bar, progress-text, translate).
export class LoadProgress {
  #$;
  #samples = []; // [ms, loaded] within WINDOW_MS
  #waiting = false;
  #note = null; // the queued sentence's line, made on first use

  constructor($) {
    this.#$ = $;
  }

  start(S) {
    const $ = this.#$;
    $('progress').hidden = false;
    $('progress-label').textContent = S.loadingModel;
    $('progress-bar').removeAttribute('value');
    $('progress-text').textContent = '';
    this.#samples = [];
  }

  show({ loaded, total }, S) {
    const $ = this.#$;
    const bar = $('progress-bar');
    const mb = (n) => (n / 1e6).toFixed(1);
    if (total) {
      bar.max = total;
      bar.value = loaded;
      const left = this.#secondsLeft(loaded, total);
      $('progress-text').textContent = `${mb(loaded)} / ${mb(total)} MB${left === null ? '' : ` · ${S.timeLeft(left)}`}`;
    } else {
      bar.removeAttribute('value'); // indeterminate: nothing says how much
      $('progress-text').textContent = `${mb(loaded)} MB`;
    }
    if (total && loaded >= total) $('progress-label').textContent = S.loadingEngine;
    if (this.#waiting) this.#label(S); // a language switch rewrote the button's text
  }

  #secondsLeft(loaded, total) {
    const now = performance.now();
    const s = this.#samples;
    s.push([now, loaded]);
    while (s.length > 2 && now - s[0][0] > WINDOW_MS) s.shift();
    const [t0, l0] = s[0];
    if (loaded >= total || now - t0 < 500 || loaded <= l0) return null; // too soon to say
    return Math.max(1, Math.ceil(((total - loaded) * (now - t0)) / (loaded - l0) / 1000));
  }

  // The Translate button while the model loads: greyed and saying why, but still a button, so
  // that a tap queues the sentence (queue()) instead of doing nothing.
  setWaiting(waiting, S) {
    const button = this.#$('translate');
    this.#waiting = waiting;
    button.disabled = false;
    if (waiting) {
      this.#$('progress-text').id ||= 'model-progress-text';
      button.setAttribute('aria-disabled', 'true');
      button.setAttribute('aria-describedby', `${this.#$('progress-text').id}`);
      this.#label(S);
    } else if (button.hasAttribute('aria-disabled')) {
      button.removeAttribute('aria-disabled');
      button.removeAttribute('aria-describedby');
      button.removeAttribute('title');
      button.textContent = S.translate;
    }
  }

  #label(S) {
    const button = this.#$('translate');
    button.textContent = S.translateWaiting;
    button.title = S.translateWaitingTitle;
  }

  // A sentence sent before the model is in: said beside the bar, which comes into view.
  queue(text, S) {
    const bar = this.#$('progress');
    if (bar.hidden) return;
    if (!this.#note) {
      this.#note = document.createElement('p');
      this.#note.className = 'progress-queued';
      this.#note.dataset.role = 'progress-queued';
      this.#note.setAttribute('role', 'status');
      bar.append(this.#note);
    }
    this.#note.textContent = S.queuedForModel(text.trim());
    this.#note.hidden = false;
    bar.scrollIntoView({ block: 'nearest' });
  }

  hide() {
    this.#$('progress').hidden = true;
    if (this.#note) this.#note.hidden = true;
  }
}
