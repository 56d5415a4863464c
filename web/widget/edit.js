// <attention-translator controls="full">: attention edits in the single figure. A cell of the
// matrix clicked (or Enter on it), or the step panel's weights dragged, decodes the sentence
// again with that word's attention given (on the main thread, like every widget decode:
// widget/engines.js), and the edit view (ui/edit-view.js) compares it with the model's own.
//
// The edit attribute is the one source of truth, as layer and head are for the head picker: an
// edit made in the figure is written to it (edit="2:3", several separated by spaces; the
// page's edit= syntax, ui/attention-edit.js), and a script that sets it gets the same edit.
// Each change dispatches an `edit` event {edits (as web/lib takes them), text (the translation
// after them, or the model's own when none)}. Another sentence drops the attribute.

import { DecodeSession } from '../engine/session.js';
import { apiEdits, editability, parseEdits } from '../ui/attention-edit.js';
import { pieces } from '../ui/dom.js';
import { EditMode } from '../ui/edit-mode.js';
import { isTransformer } from '../ui/heads.js';

// The attribute's value -> parseEdits()'s {edits, refused}.
export const readEditAttr = (value) => parseEdits((value ?? '').split(/[\s;]+/).filter(Boolean));

async function decodeHere(translator, text, edits) {
  const session = new DecodeSession(translator, text, { edits: apiEdits(edits) });
  const steps = [];
  for await (const st of session) steps.push(st);
  const { result } = session;
  return { steps, result, pieces: pieces(result.targetTokens, result.text), forced: false };
}

export class WidgetEdits extends EditMode {
  #host;
  #full = false;
  #syncing = false; // writing the attribute ourselves: its change is no new edit

  // container: the edit view's root in the shadow tree; host: the element; figure: its
  // ui/figure.js; o: {translator(), sentence() (the element's {text, ...} on show), error(message)}.
  constructor(container, host, figure, o) {
    const p = figure.player;
    super(container, {
      lang: 'en',
      decode: (list) => decodeHere(o.translator(), o.sentence().text, list),
      show: (run, step) => {
        o.sentence().pieces = run.pieces;
        figure.hover = null;
        p.reset({ play: false });
        for (const st of run.steps) p.push(st);
        p.finish();
        if (step === null || step === undefined) p.last();
        else p.seek(step);
      },
      error: (message) => o.error(message),
      changed: () => this.#changed(),
      refresh: () => figure.refreshPanel(),
    });
    this.#host = host;
  }

  // Editing from the figure needs controls="full"; the attribute works with any.
  get editable() {
    return this.#full && super.editable;
  }

  setControls(mode) {
    this.#full = mode === 'full';
    this.redraw();
  }

  // Without full controls nothing in the figure can edit: no hint (an edit the attribute made,
  // and what was wrong with it, still show).
  shownStatus(status, notes) {
    if (this.#full || status === 'active' || status === 'off') return status;
    return notes.length ? 'notes' : 'off';
  }

  // The whole translation on show ({text, words}, or null): after an edit, the edited decode's.
  wholeText(sentence) {
    const r = this.run?.result ?? sentence?.result;
    return r ? { text: r.text, words: r.targetTokens.length } : null;
  }

  // A cell of the matrix clicked.
  click(cell) {
    if (this.#full) this.apply({ step: cell.row, column: cell.col });
  }

  // The sentence was decoded (sentence: {text, sourceTokens, result, pieces}, steps: its own
  // rows): it is the one edited now, with the attribute's edits.
  async decoded(sentence, steps, info, label) {
    const run = { steps, result: sentence.result, pieces: sentence.pieces, forced: false };
    this.setBase(run, { columns: sentence.sourceTokens, status: editability(info, sentence.beam), label, transformer: isTransformer(info) });
    const parsed = readEditAttr(this.#host.getAttribute('edit'));
    if (parsed.edits.length || parsed.refused) await this.applyAll(parsed);
  }

  // The attribute changed: make its edits, unless they are the ones on show.
  fromAttribute() {
    if (this.#syncing || !this.base) return;
    const parsed = readEditAttr(this.#host.getAttribute('edit'));
    if (parsed.edits.map((e) => JSON.stringify(e)).join() === this.edits.map((e) => JSON.stringify(e)).join()) return;
    if (parsed.edits.length === 0 && !parsed.refused) this.reset();
    else this.applyAll(parsed);
  }

  #changed() {
    const value = this.linkValues.join(' ');
    this.#syncing = true;
    if (value) this.#host.setAttribute('edit', value);
    else this.#host.removeAttribute('edit');
    this.#syncing = false;
    const result = this.run?.result ?? this.base?.result;
    this.#host.dispatchEvent(new CustomEvent('edit', { detail: { edits: apiEdits(this.edits), text: result?.text ?? '' } }));
  }
}
