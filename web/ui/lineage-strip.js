// why.html's lineage strip: the site's four models in order (no attention, additive, scaled
// dot, the Transformer), each with its parameter count (info().numParams), the time one
// decoder step spends scoring (scoringCost() on one sentence, in this browser; "none" for the
// model without attention, "n/a" with the engine's reason where it cannot be timed) and its
// BLEU at the shortest and longest bands from scripts/eval's table. A model whose file is not
// on the server says so and the others carry on. The owner feeds it; nothing is computed here.
//
// Automation hooks (stable): data-role="lineage"; per model data-role="lineage-model"
// data-model, data-kind, data-state (waiting, loading, ready, missing, failed), with
// data-role="lineage-params" (data-value), "lineage-cost" (data-value: the median in µs),
// "lineage-bleu" (data-short, data-long).

import { h } from './dom.js';
import { num, us } from './compare-strings.js';

export class LineageStrip {
  element;
  #W;
  #models; // [{name, kind}]
  #state = {}; // name -> {status, info, cost, costError, error}
  #bleu = null; // bleu-by-length.json
  #sentence = '';
  #list = h('ol', { class: 'why-lineage-list' });
  #note = h('p', { class: 'hint', 'data-role': 'lineage-sentence' });

  // models: [{name, kind}] in the story's order.
  constructor(container, { strings, models }) {
    this.#W = strings;
    this.#models = models;
    for (const { name } of models) this.#state[name] = { status: 'waiting' };
    this.element = h('div', { class: 'why-lineage', 'data-role': 'lineage' }, this.#list, this.#note);
    container.replaceChildren(this.element);
    this.#render();
  }

  setStrings(W) {
    this.#W = W;
    this.#render();
  }

  setBleu(json) {
    this.#bleu = json;
    this.#render();
  }

  setSentence(text) {
    this.#sentence = text;
    this.#render();
  }

  // state: {status, info?, cost?, costError?, error?} for one model.
  setModel(name, state) {
    this.#state[name] = state;
    this.#render();
  }

  #render() {
    const W = this.#W;
    this.#list.setAttribute('aria-label', W.lineageLabel);
    this.#list.replaceChildren(...this.#models.map((m, k) => this.#card(m, k)));
    this.#note.textContent = this.#sentence ? W.lineageSentence(this.#sentence) : '';
    this.#note.hidden = !this.#sentence;
  }

  #card({ name, kind }, k) {
    const W = this.#W;
    const st = this.#state[name];
    const dd = (role, text, data = {}) => h('dd', { 'data-role': role, ...data, text });
    let params = W.lineageWaiting;
    let cost = W.lineageWaiting;
    const pdata = {};
    const cdata = {};
    if (st.status === 'loading') params = cost = W.lineageLoading;
    else if (st.status === 'missing') params = cost = W.lineageMissing;
    else if (st.status === 'failed') params = cost = W.lineageFailed(st.error);
    else if (st.status === 'ready') {
      params = num(st.info.numParams);
      pdata['data-value'] = String(st.info.numParams);
      if (st.cost) {
        cost = W.lineageCostValue(us(st.cost.stepUs), st.cost.batches);
        cdata['data-value'] = String(st.cost.stepUs);
      } else if (st.info.scoring === 'none' && st.info.arch !== 'transformer') cost = W.lineageNoScore;
      else cost = `n/a: ${st.costError ?? '—'}`;
    }
    const series = this.#bleu?.models.find((m) => m.model === name);
    const bands = this.#bleu?.buckets ?? [];
    const short = series?.bleu[bands[0]];
    const long = series?.bleu[bands.at(-1)];
    const bleu = Number.isFinite(short) && Number.isFinite(long)
      ? dd('lineage-bleu', W.lineageBleuValue(short.toFixed(1), long.toFixed(1)), { 'data-short': String(short), 'data-long': String(long) })
      : dd('lineage-bleu', W.lineageNoBleu);
    return h('li', { class: `why-lineage-model is-${kind}`, 'data-role': 'lineage-model', 'data-model': name, 'data-kind': kind, 'data-state': st.status },
      h('h3', {}, h('span', { class: 'why-lineage-step', 'aria-hidden': 'true', text: String(k + 1) }), h('span', { text: name })),
      h('p', { class: 'why-lineage-kind', text: W.seriesKind[kind] ?? kind }),
      h('dl', {},
        h('dt', { text: W.lineageParams }), dd('lineage-params', params, pdata),
        h('dt', { text: W.lineageCost }), dd('lineage-cost', cost, cdata),
        h('dt', { text: W.lineageBleu }), bleu));
  }
}
