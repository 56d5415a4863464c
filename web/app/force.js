// "Or type your own French": forced decoding of a translation the user types. The engine runs
// the decoder on the user's words instead of its own choices (web/lib align()), and the page
// shows those rows in the same matrix, lines and step panel: where the model looks when it
// writes each of the user's words, and how likely it found each one. The model's own
// translation comes back with one click.
//
// The DOM is the page's (index.html, data-role="force-*"); this module owns its state and
// asks the page, through callbacks, to align, to show rows and to restore the model's.

export class ForceMode {
  #el;
  #S;
  #cb;
  #available = false;
  #shown = false; // once a sentence has been translated the form stays, so nothing jumps
  #active = null; // {french, result} on show, or null
  #pending = 0; // the request whose answer may still be shown

  // el: {form, input, submit, summary, text, back}; callbacks: {align(french) -> Promise,
  // show(result, french), restore(), error(message)}
  constructor(el, strings, callbacks) {
    this.#el = el;
    this.#S = strings;
    this.#cb = callbacks;
    el.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(el.input.value);
    });
    el.back.addEventListener('click', () => this.restore());
    this.#render();
  }

  get active() {
    return this.#active;
  }

  setStrings(strings) {
    this.#S = strings;
    this.#render();
  }

  // True once a sentence has been translated (its columns exist); false while decoding.
  setAvailable(available) {
    this.#available = available;
    this.#shown ||= available;
    this.#el.submit.disabled = !available;
    this.#render();
  }

  // A new English sentence: whatever was aligned, or typed, belonged to the old one, so the box
  // is emptied too (a sentence tab's own French comes back through submit()).
  clear() {
    this.#pending++;
    this.#active = null;
    this.#el.input.value = '';
    this.#render();
  }

  async submit(french) {
    const S = this.#S;
    if (!this.#available) {
      this.#cb.error(S.forceNeedSentence);
      return;
    }
    if (!french.trim()) {
      this.#cb.error(S.forceEmpty);
      this.#el.input.focus();
      return;
    }
    const mine = ++this.#pending;
    this.#el.input.value = french;
    try {
      const result = await this.#cb.align(french);
      if (mine !== this.#pending) return;
      this.#active = { french, result };
      this.#cb.show(result, french);
    } catch (e) {
      if (mine !== this.#pending) return;
      this.#cb.error(e.message);
    }
    this.#render();
  }

  restore() {
    if (!this.#active) return;
    this.#active = null;
    this.#pending++;
    this.#cb.restore();
    this.#render();
  }

  #render() {
    const { summary, text, form } = this.#el;
    form.hidden = !this.#shown;
    summary.hidden = !this.#active;
    if (this.#active) {
      const { result } = this.#active;
      const words = result.targetTokens.length - 1; // '</s>' is a row, not a word
      text.textContent = this.#S.forceSummary(words, result.unknown, result.logProb.toFixed(2));
    }
  }
}
