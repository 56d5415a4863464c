// why.html's lineage strip: the site's four models in order (no attention, additive, scaled
// dot, the Transformer), each with its parameter count (info().numParams), the time one
// decoder step spends scoring (scoringCost() on one sentence, in this browser; "none" for the
// model without attention, "n/a" with the engine's reason where it cannot be timed) and its
// BLEU at the shortest and longest bands from scripts/eval's table, its training throughput
// from scripts/train-speed's data/train-speed.json (en-fr's recipe and the Transformer's: the
// only two it times) and its decoding time per output word in this browser. A model whose file
// is not on the server says so and the others carry on. The owner feeds it; nothing is
// computed here.
//
// Automation hooks (stable): data-role="lineage"; per model data-role="lineage-model"
// data-model, data-kind, data-state (waiting, loading, ready, missing, failed), with
// data-role="lineage-params" (data-value), "lineage-cost" (data-value: the median in µs),
// "lineage-bleu" (data-short, data-long), "lineage-train" (data-tokens-per-s,
// data-epoch-minutes, data-s-per-step: the JSON's), "lineage-decode" (data-ms-per-word,
// data-encode-ms); data-role="lineage-train-note" under the list.

import { h } from './dom.js';
import { num, us } from './compare-strings.js';

export class LineageStrip {
  element;
  #W;
  #models; // [{name, kind}]
  #state = {}; // name -> {status, info, cost, costError, error}
  #bleu = null; // bleu-by-length.json
  #train = null; // train-speed.json, or {error} when it could not be read
  #sentence = '';
  #list = h('ol', { class: 'why-lineage-list' });
  #note = h('p', { class: 'hint', 'data-role': 'lineage-sentence' });
  #trainNote = h('p', { class: 'hint', 'data-role': 'lineage-train-note', hidden: true });

  // models: [{name, kind, train?}] in the story's order; train: the model's key in
  // train-speed.json's models ('rnn', 'transformer'), absent where it was not timed.
  constructor(container, { strings, models }) {
    this.#W = strings;
    this.#models = models;
    for (const { name } of models) this.#state[name] = { status: 'waiting' };
    this.element = h('div', { class: 'why-lineage', 'data-role': 'lineage' }, this.#list, this.#note, this.#trainNote);
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

  // json: data/train-speed.json, or {error: message} when it could not be fetched or read.
  setTrainSpeed(json) {
    this.#train = json;
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
    const t = this.#train;
    this.#trainNote.hidden = !t || Boolean(t.error);
    if (t && !t.error) {
      this.#trainNote.replaceChildren(`${W.lineageTrainNote} `, h('code', { text: String(t.command) }),
        ` ${W.lineageTrainOn} `, h('code', { text: String(t.machine) }), W.lineageTrainEnd);
    }
  }

  // The training line: the JSON's numbers as written (only grouped for reading), the
  // Transformer's with the JSON's own ratio to the RNN's tokens/s.
  #trainLine(key) {
    const W = this.#W;
    const t = this.#train;
    if (!t) return { text: W.lineageWaiting };
    const m = key && t.models?.[key];
    const ok = (x) => Number.isFinite(x) && x > 0;
    if (t.error || (m && !(ok(m.target_tokens_per_s) && ok(m.epoch_minutes)))) return { text: W.lineageTrainMissing };
    if (!m) return { text: W.lineageTrainNone };
    let text = W.lineageTrainValue(num(m.target_tokens_per_s), m.epoch_minutes.toFixed(1), t.threads, t.bf16);
    if (key === 'transformer' && ok(t.transformer_vs_rnn_tokens_per_s)) text += W.lineageTrainRatio(t.transformer_vs_rnn_tokens_per_s.toFixed(2));
    return { text, data: { 'data-tokens-per-s': String(m.target_tokens_per_s), 'data-epoch-minutes': String(m.epoch_minutes), 'data-s-per-step': String(m.s_per_step) } };
  }

  #decodeLine(st) {
    const W = this.#W;
    if (st.decode) {
      const { msPerWord, encodeMs, runs } = st.decode;
      return { text: W.lineageDecodeValue(msPerWord.toFixed(2), encodeMs.toFixed(1), runs), data: { 'data-ms-per-word': String(msPerWord), 'data-encode-ms': String(encodeMs) } };
    }
    return { text: `n/a: ${st.decodeError ?? '—'}` };
  }

  #card({ name, kind, train }, k) {
    const W = this.#W;
    const st = this.#state[name];
    const dd = (role, text, data = {}) => h('dd', { 'data-role': role, ...data, text });
    let params = W.lineageWaiting;
    let cost = W.lineageWaiting;
    let decode = { text: W.lineageWaiting };
    const pdata = {};
    const cdata = {};
    if (st.status === 'loading') params = cost = decode.text = W.lineageLoading;
    else if (st.status === 'missing') params = cost = decode.text = W.lineageMissing;
    else if (st.status === 'failed') params = cost = decode.text = W.lineageFailed(st.error);
    else if (st.status === 'ready') {
      decode = this.#decodeLine(st);
      params = num(st.info.numParams);
      pdata['data-value'] = String(st.info.numParams);
      if (st.cost) {
        cost = W.lineageCostValue(us(st.cost.stepUs), st.cost.batches);
        cdata['data-value'] = String(st.cost.stepUs);
      } else if (st.info.scoring === 'none' && st.info.arch !== 'transformer') cost = W.lineageNoScore;
      else cost = `n/a: ${st.costError ?? '—'}`;
    }
    const trainLine = this.#trainLine(train);
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
        h('dt', { text: W.lineageBleu }), bleu,
        h('dt', { text: W.lineageTrain }), dd('lineage-train', trainLine.text, trainLine.data),
        h('dt', { text: W.lineageDecode }), dd('lineage-decode', decode.text, decode.data)));
  }
}
