// The page's side of attention edits (ui/edit-mode.js holds them, ui/edit-view.js draws
// them): a decode with edits asked of the worker, as the model's own translation (greedy) or
// as the typed French (forced decoding, app/force.js), and the rows without edits that an
// edit is compared with and that "back" returns to.

import { forcedSteps } from '../engine/steps.js';
import { apiEdits, editability } from '../ui/attention-edit.js';
import { pieces } from '../ui/dom.js';
import { EditFindings } from '../ui/edit-findings.js';
import { EditMode } from '../ui/edit-mode.js';
import { EDIT_STRINGS } from '../ui/edit-strings.js';
import { isTransformer } from '../ui/heads.js';

// -> Promise<run> ({steps, result, pieces, forced}): text decoded with edits; french, the
// typed translation being aligned, or null for the model's own.
export async function decodeEdited(client, text, french, edits) {
  if (french) return forcedRun(await client.align(text, french, { edits: apiEdits(edits) }), french);
  const steps = [];
  const { result } = await client.translate(text, { beam: 1, edits: apiEdits(edits), onStep: (st) => steps.push(st) });
  return { steps, result, pieces: pieces(result.targetTokens, result.text), forced: false };
}

function forcedRun(result, french) {
  return { steps: forcedSteps(result), result, pieces: pieces(result.targetTokens.slice(0, -1), french), forced: true };
}

// [run, options] for EditMode.setBase(): the sentence as decoded (the model's own rows, or
// the aligned French's: force {french, result}), and whether and how this model can be edited.
export function editBase(sentence, info, label, force = null) {
  const run = force ? forcedRun(force.result, force.french)
    : { steps: sentence.modelSteps, result: sentence.result, pieces: sentence.modelPieces, forced: false };
  return [run, { columns: sentence.sourceTokens, status: editability(info, sentence.beam), label, transformer: isTransformer(info) }];
}

// The page's edits: EditMode over the worker, and the recorded measurement's section below the
// figure (findingsRoot). page: {state (app.js's), label (the model's), force() (the aligned
// French on show, or null), replaceRows(steps, pieces), seek(step), error(title, message),
// refresh()}. rebase(): the sentence on show is the one to edit now.
export class PageEdits extends EditMode {
  #page;
  #findings;
  #findingsRoot;

  constructor(container, findingsRoot, page) {
    const { state } = page;
    super(container, {
      lang: state.lang,
      decode: (list) => decodeEdited(state.client, state.sentence.text, page.force()?.french, list),
      show: (run, step) => {
        page.replaceRows(run.steps, run.pieces);
        if (step !== null) page.seek(step);
      },
      error: (message) => page.error(EDIT_STRINGS[state.lang].error, message),
      refresh: page.refresh,
    });
    this.#page = page;
    this.#findingsRoot = findingsRoot;
    this.#findings = new EditFindings(findingsRoot, { lang: state.lang });
  }

  // target: the model's target language. The recorded measurement is en-fr's models' (their
  // gold set and human translations are French), so a model into another language hides it
  // rather than show figures that are not its own.
  setLang(lang, target) {
    super.setLang(lang, target);
    this.#findings?.setLang(lang);
    if (target) this.#findingsRoot.hidden = target !== 'fr';
  }

  rebase() {
    const { state, label, force } = this.#page;
    this.setBase(...editBase(state.sentence, state.engine.info, label, force()));
  }
}
