// compare.html's attention edits: one edit, made by clicking a cell of either matrix, given to
// both models (each decodes the sentence again in its own worker with it); a model without
// attention cannot be edited, and says so while the other goes on. The rows on show are then
// the edited decodes', replayed into the view in lockstep; "back" replays the plain ones.

import { decodeEdited } from './edits.js';
import { editability } from '../ui/attention-edit.js';
import { CompareEditView } from '../ui/compare-edit-view.js';
import { EditMode } from '../ui/edit-mode.js';
import { EDIT_STRINGS } from '../ui/edit-strings.js';
import { isTransformer } from '../ui/heads.js';
import { SIDES } from '../ui/lockstep.js';

// The two sides' runs as one EditMode run: its steps say, per index, whether either side's
// step there was edited (which edits the engine applied).
function both(runs) {
  const n = Math.max(...SIDES.map((s) => runs[s]?.steps.length ?? 0));
  const steps = Array.from({ length: n }, (_, index) => ({ index, edited: SIDES.some((s) => runs[s]?.steps[index]?.edited) }));
  return { ...runs, steps };
}

export class CompareEdits extends EditMode {
  #view;
  #side = {}; // side -> {status, label}
  #page;

  // view: the CompareView; page: {clients, text() (the sentence on show), lang, error(title,
  // message), changed()}.
  constructor(view, page) {
    let editView;
    super(null, {
      lang: page.lang,
      decode: (list) => this.#decode(list),
      show: (run, step) => {
        view.replaceSteps(run);
        view.player.seek(step ?? view.player.steps.length - 1);
      },
      error: (message) => page.error(EDIT_STRINGS[page.lang].error, message),
      changed: () => page.changed(),
      makeView: (onReset) => (editView = new CompareEditView(view.editRoots, { lang: page.lang, onReset })),
    });
    this.#view = editView;
    this.#page = page;
  }

  setLang(lang) {
    this.#page.lang = lang;
    super.setLang(lang);
  }

  // The sentence both models decoded: bases {a, b} ({steps, result}), infos {a, b}, labels.
  rebase(bases, infos, labels) {
    for (const side of SIDES) this.#side[side] = { status: editability(infos[side]), label: labels[side] };
    this.#view.setSides(this.#side);
    const columns = bases.a.result?.sourceTokens ?? [];
    const same = SIDES.every((s) => bases[s].result?.sourceTokens.length === columns.length);
    const any = SIDES.some((s) => this.#side[s].status === 'ok');
    const status = !any ? 'none' : same ? 'ok' : 'columns';
    this.setBase(both(bases), { columns, status, transformer: SIDES.some((s) => isTransformer(infos[s])) });
  }

  async #decode(list) {
    const text = this.#page.text();
    const runs = {};
    await Promise.all(SIDES.map(async (side) => {
      runs[side] = this.#side[side].status === 'ok'
        ? await decodeEdited(this.#page.clients[side], text, null, list)
        : this.#plain(side);
    }));
    return both(runs);
  }

  // A side without attention keeps its plain decode.
  #plain(side) {
    return this.base?.[side] ?? null;
  }
}
