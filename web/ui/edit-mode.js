// Attention edits on one figure, the page's and the widget's: which words are edited now, the
// two decodes the edit view compares (without the last edit, and with it), what a link's
// edits came to, and the way back. Owns no engine: decode(edits) is the host's (the page asks
// its worker, the widget its translator), and show(run, step) puts a decode's rows in the
// figure (step null: the rows without edits).
//
// A run is one decode: {steps, result, pieces, forced}. The base run is the sentence as it was
// decoded without edits (the model's own translation, or the typed French aligned).

import { EditView } from './edit-view.js';
import { EDIT_STRINGS } from './edit-strings.js';
import { retarget } from './target-strings.js';
import { beforeLast, fitEdits, formatEdit, holding, unapplied, withEdit } from './attention-edit.js';

export class EditMode {
  #view;
  #cb;
  #lang = 'en';
  #target = 'fr';
  #base = null;
  #columns = [];
  #status = 'off'; // off (nothing decoded), ok, none (no attention), beam
  #label = '';
  #transformer = false;
  #edits = [];
  #runs = null; // {before, after}
  #notes = [];
  #job = 0; // the decode whose answer may still be shown

  // container: where the edit view goes. decode(edits) -> Promise<run>; show(run, step|null);
  // error(message): a decode failed; changed(): the edits changed (a link to update);
  // refresh(): whether the figure may edit changed (a new sentence). makeView(onReset): another
  // view than ui/edit-view.js's ({render(state), setLang(lang)}; container is then unused).
  constructor(container, { lang = 'en', decode, show, error, changed = () => {}, refresh = () => {}, makeView = null }) {
    this.#cb = { decode, show, error, changed, refresh };
    this.#lang = lang;
    const onReset = () => this.reset();
    const onHold = (on) => this.hold(on);
    this.#view = makeView ? makeView(onReset) : new EditView(container, { lang, onReset, onHold });
  }

  get edits() {
    return this.#edits.slice();
  }

  get active() {
    return this.#edits.length > 0;
  }

  // The run without edits (null before a sentence is decoded).
  get base() {
    return this.#base;
  }

  // The decode with the edits, on show (null: none).
  get run() {
    return this.#runs?.after ?? null;
  }

  // The step panel may offer its editable bars.
  get editable() {
    return this.#status === 'ok';
  }

  // The edits as a link keeps them (edit= values).
  get linkValues() {
    return this.#edits.map(formatEdit);
  }

  // target: the model's target language, for the view's words (ui/target-strings.js).
  setLang(lang, target) {
    this.#lang = lang;
    this.#target = target ?? this.#target;
    this.#view.setLang(lang, this.#target);
  }

  // A sentence decoded without edits (run), or null while there is none: every edit goes.
  // columns: its source tokens and </s>; status: ui/attention-edit.js editability(); label:
  // the model's, for the note that it cannot be edited; transformer: the edit covers every head.
  setBase(run, { columns = [], status = 'ok', label = '', transformer = false } = {}) {
    this.#job++;
    this.#base = run;
    this.#columns = columns.slice();
    this.#status = run ? status : 'off';
    this.#label = label;
    this.#transformer = transformer;
    this.#edits = [];
    this.#runs = null;
    this.#notes = [];
    this.#render();
    this.#cb.refresh();
  }

  // The status the host set (setBase): off, ok, none, beam, or the host's own.
  get status() {
    return this.#status;
  }

  // Edits from a link, all at once ({edits, refused}: ui/attention-edit.js parseEdits()).
  async applyAll({ edits, refused = 0 }) {
    const fit = fitEdits(edits, this.#columns.length);
    const bad = refused + fit.dropped.length;
    const notes = bad ? [retarget(EDIT_STRINGS[this.#lang], this.#lang, this.#target).dropped(bad)] : [];
    if (this.#status !== 'ok' || fit.edits.length === 0) {
      this.#notes = notes;
      this.#render();
      return;
    }
    await this.#run(fit.edits, notes, { quiet: true });
  }

  // Word edit.step looks as the edit says: the edits before it stay, those after it go.
  async apply(edit) {
    if (this.#status !== 'ok') {
      this.#render();
      return;
    }
    await this.#run(withEdit(this.#edits, edit), []);
  }

  // The last edit held for the words after it (on), or for its own word only.
  async hold(on) {
    if (this.#status !== 'ok' || this.#edits.length === 0) return;
    const last = this.#edits[this.#edits.length - 1];
    await this.#run([...beforeLast(this.#edits), holding(last, on)], []);
  }

  // Back to the rows without edits, at the word that was edited last.
  reset() {
    if (!this.#base) return;
    const at = this.#edits.length ? this.#edits[this.#edits.length - 1].step : null;
    this.#job++;
    this.#edits = [];
    this.#runs = null;
    this.#notes = [];
    this.#cb.show(this.#base, at);
    this.#render();
    this.#cb.changed();
  }

  // quiet: the edits came from a link, so a refusal is said in the view, not as an error.
  async #run(list, notes, { quiet = false } = {}) {
    const mine = ++this.#job;
    const E = retarget(EDIT_STRINGS[this.#lang], this.#lang, this.#target);
    try {
      const after = await this.#cb.decode(list);
      if (mine !== this.#job) return;
      // An edit at a step the translation does not reach is never applied: `after` is then the
      // decode of the others, and it is left out.
      const missing = unapplied(list, after.steps);
      const kept = list.filter((e) => !missing.includes(e));
      const said = [...notes, ...missing.map((e) => E.pastEnd(e.step + 1))];
      if (kept.length === 0) {
        this.#edits = [];
        this.#runs = null;
        this.#notes = said;
        this.#cb.show(this.#base, null);
      } else {
        const before = kept.length > 1 ? await this.#cb.decode(beforeLast(kept)) : this.#base;
        if (mine !== this.#job) return;
        this.#edits = kept;
        this.#runs = { before, after };
        this.#notes = said;
        this.#cb.show(after, kept[kept.length - 1].step);
      }
      this.#render();
      this.#cb.changed();
    } catch (e) {
      if (mine !== this.#job || e.name === 'AbortError') return;
      if (!quiet) {
        this.#cb.error(e.message);
        return;
      }
      this.#notes = [...notes, E.refused(e.message)];
      this.#render();
    }
  }

  // The status the view shows (a host may say less: the widget without full controls).
  shownStatus(status) {
    return status;
  }

  // Draws the view again (what the host lets it say changed).
  redraw() {
    this.#render();
  }

  #render() {
    const active = this.#runs !== null && this.#edits.length > 0;
    this.#view.render({
      status: this.shownStatus(active ? 'active' : this.#status === 'ok' ? 'hint' : this.#status, this.#notes),
      label: this.#label,
      transformer: this.#transformer,
      notes: this.#notes,
      edits: this.#edits,
      columns: this.#columns,
      ...this.#runs,
    });
  }
}
