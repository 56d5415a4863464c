// The attention figure of one sentence, as the page and the widget both show it: a Player over
// the decoded steps, and what moves with it: the matrix's rows, the output line, the step
// panel, the control bar with its position line, and a `step` event at each move. The page
// and the widget build the elements and say where the numbers come from; what is drawn, and
// when, is decided here once.
//
// Automation hooks (stable): data-position and data-playing on `host`, data-token on the
// output line's words, data-text on the output line once the whole sentence is on show.

import { isRow } from '../engine/steps.js';
import { emptyTranslationNote, h } from './dom.js';
import { ownRow } from './heads.js';
import { Player, syncControls, wireControls } from './player.js';

// A figure without a Transformer's picker: a step's row is its own attention.
const OWN_ROWS = { active: false, row: (step) => step.alpha, ownRow: (step) => ownRow(step, null), panelStep: (step) => step, preview() {} };

export class Figure {
  player;
  hover = null; // {row, col}: the cell highlighted in the output line too
  #o;
  #S;
  #sentence = null;
  #shownStep; // the step the panel shows; undefined forces a redraw (the empty state too)

  // controls: {first, back, play, forward, last, speed, position, speedValue?} elements.
  // matrix, panel: an AttentionMatrix and a StepPanel. output: the output line's element. host:
  // the element that carries data-position / data-playing. heads: a Transformer's picked rows
  // ({active, row(step), ownRow(step), panelStep(step), preview(step)}; by default each step's
  // alpha, and an edited step's ownAlpha). canEdit(): the step panel's weights may be edited.
  // info(): the model's info() (captions), or null. wholeText(): {text, words} of the sentence
  // on show, or null. events: where the `step` event is dispatched (null: none). decodingNote:
  // the position line says while steps are still arriving. onRender({rows, current, step}):
  // what else the embedder draws at each move.
  constructor({ controls, matrix, panel, output, host, strings, heads = OWN_ROWS, info = () => null,
    wholeText = () => null, events = null, decodingNote = false, onRender = () => {}, canEdit = () => false }) {
    this.#o = { controls, matrix, panel, output, host, heads, info, wholeText, events, decodingNote, onRender, canEdit };
    this.#S = strings;
    // Play ends on the last word; the </s> step is one step forward.
    this.player = new Player({ onChange: () => this.render(), stopsBefore: (st) => !isRow(st) });
    wireControls(controls, this.player);
  }

  // sentence: {text, sourceTokens, pieces (the detokenized spacing, once decoded)} or null.
  get sentence() {
    return this.#sentence;
  }

  set sentence(sentence) {
    this.#sentence = sentence;
    this.reset();
  }

  // The columns changed, or the rows are to be read again (another layer or head): redraw all.
  reset() {
    this.#o.matrix.reset(this.#sentence?.sourceTokens ?? []);
    this.#shownStep = undefined;
    this.render();
  }

  // The step panel drawn again (whether it may edit changed), the matrix as it is.
  refreshPanel() {
    this.#shownStep = undefined;
    this.render();
  }

  setStrings(S) {
    this.#S = S;
    this.#o.matrix.setStrings(S);
    this.#o.panel.setStrings(S);
    this.render();
  }

  // The rows on show: the steps up to the position that are rows, with the weights drawn (and
  // for an edited one, the model's own row there).
  rows() {
    const p = this.player;
    const { heads } = this.#o;
    return p.steps.slice(0, p.position + 1).filter(isRow).map((st) => ({ word: st.word, weights: heads.row(st),
      edited: Boolean(st.edited), own: st.edited ? (heads.ownRow ? heads.ownRow(st) : OWN_ROWS.ownRow(st)) : null }));
  }

  render() {
    const { matrix, heads, onRender } = this.#o;
    const p = this.player;
    const step = p.position >= 0 ? p.steps[p.position] : null;
    const rows = this.rows();
    const current = isRow(step) ? p.position : -1;
    matrix.setRows(rows);
    matrix.setCurrent(current);
    heads.preview(step);
    this.#renderOutput(rows, current);
    if (step !== this.#shownStep) {
      this.#shownStep = step;
      this.#renderPanel(step);
      if (step) this.#dispatchStep(step);
    }
    this.#renderControls();
    onRender({ rows, current, step });
  }

  #renderOutput(rows, current) {
    const { output } = this.#o;
    const p = this.player;
    const pieces = this.#sentence?.pieces;
    output.replaceChildren(...rows.flatMap((row, i) => {
      const piece = pieces?.[i] ?? { sep: i ? ' ' : '', text: row.word };
      const cls = ['tok', i === current ? 'is-current' : '', this.hover?.row === i ? 'is-hl' : ''].join(' ').trim();
      return [piece.sep, h('span', { class: cls, 'data-token': i, text: piece.text })];
    }));
    if (p.finished && p.steps.length > 0 && rows.length === 0) output.replaceChildren(emptyTranslationNote(this.#S));
    const whole = this.#o.wholeText();
    if (p.finished && whole && rows.length === whole.words) output.dataset.text = whole.text;
    else delete output.dataset.text;
  }

  #renderPanel(step) {
    const info = this.#o.info();
    const { heads } = this.#o;
    this.#o.panel.render(step && this.#sentence && {
      columns: this.#sentence.sourceTokens,
      step: heads.panelStep(step),
      scoring: info?.scoring,
      decoder: info?.decoder,
      transformer: heads.active, // one layer and head of many: the captions say so
      guidance: info?.attentionGuidance,
      beam: Boolean(step.beamOnly),
      editable: !step.beamOnly && this.#o.canEdit(),
    });
  }

  // end: the step that emits </s> (its attention is not a row of the matrix).
  #dispatchStep(step) {
    const { events, heads } = this.#o;
    if (!events) return;
    const detail = { index: step.index, word: step.word, weights: Array.from(heads.row(step)), end: !isRow(step), edited: Boolean(step.edited) };
    events.dispatchEvent(new CustomEvent('step', { detail }));
  }

  #renderControls() {
    const { controls, host, decodingNote } = this.#o;
    const p = this.player;
    const S = this.#S;
    syncControls(controls, p, S);
    const words = p.steps.filter(isRow).length;
    const step = p.position >= 0 ? p.steps[p.position] : null;
    let text = '';
    if (step && !isRow(step)) text = S.positionEnd(words);
    else if (step) text = S.position(p.position + 1, p.finished ? words : `${words}+`);
    if (decodingNote && !p.finished && p.steps.length > 0) text += ` · ${S.decoding}`;
    controls.position.textContent = text;
    host.dataset.position = String(p.position);
    host.dataset.playing = String(p.playing);
  }
}
