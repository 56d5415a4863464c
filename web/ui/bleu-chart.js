// BLEU against source length: one line per model over the length bands, drawn as inline SVG
// from scripts/eval's numbers (data/bleu-by-length.json), with an optional second set of lines
// for a run measured in this browser. Colours are docs/bleu-by-length.svg's, set in CSS by
// scoring kind so dark mode can lighten them. The numbers are also a table (under a
// disclosure) and the SVG's description, so nothing is only a picture.
//
// Automation hooks (stable): data-role="bleu-chart"; each point data-model, data-scoring,
// data-bucket, data-bleu (as in the JSON, or the run's exact score x 100), data-series
// ("published" | "run"); data-role="bleu-table" with the same numbers in cells data-bleu.

import { h, s } from './dom.js';

const TICK = 10; // BLEU between gridlines

// A series' kind, for its colour and its name: the Transformer (its scoring is a scaled dot
// product too, so scripts/eval's arch or decoder field, or its name, tells it apart), else the
// RNN's scoring kind.
export const seriesKind = (m) =>
  (m.arch === 'transformer' || m.decoder === 'transformer' || /transformer/.test(m.model) ? 'transformer' : m.scoring);

export class BleuChart {
  element;
  #W;
  #data = null; // the JSON: {buckets, models: [{model, scoring, bleu, sentences}], ...}
  #run = null; // {models: [{model, scoring, bleu: {bucket: x100 | null}, sentences: {bucket: n}}], sentences, partial}
  #only = null; // scoring kinds to draw from the JSON (null: all)
  #e = {};
  #width = 640;

  // only: the JSON's models to draw, by scoring kind (the experiment's chart shows the two it runs).
  constructor(container, { strings, only = null }) {
    this.#W = strings;
    this.#only = only;
    const e = this.#e;
    e.svg = s('svg', { class: 'bl-bleu-svg', role: 'img' });
    e.legend = h('ul', { class: 'bl-bleu-legend' });
    e.summary = h('summary');
    e.table = h('table', { class: 'bl-bleu-table', 'data-role': 'bleu-table' });
    e.details = h('details', { class: 'bl-bleu-numbers' }, e.summary, h('div', { class: 'bl-bleu-table-scroll' }, e.table));
    this.element = h('figure', { class: 'bl-bleu', 'data-role': 'bleu-chart' }, e.svg, e.legend, e.details);
    container.replaceChildren(this.element);
    // Redrawn at its own width, so its text stays legible on a phone instead of scaling down.
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        const w = Math.round(this.element.clientWidth);
        if (w > 0 && Math.abs(w - this.#width) > 8) {
          this.#width = w;
          this.#render();
        }
      }).observe(this.element);
    }
  }

  setStrings(W) {
    this.#W = W;
    this.#render();
  }

  setData(data) {
    this.#data = data;
    this.#render();
  }

  setRun(run) {
    this.#run = run;
    this.#render();
  }

  get #series() {
    const d = this.#data;
    if (!d) return [];
    const published = d.models.filter((m) => !this.#only || this.#only.includes(m.scoring))
      .map((m) => ({ ...m, kind: 'published' }));
    const run = (this.#run?.models ?? []).map((m) => ({ ...m, kind: 'run' }));
    return [...published, ...run];
  }

  #name(m) {
    return this.#W.series(m.model, this.#W.seriesKind[seriesKind(m)] ?? m.scoring);
  }

  #render() {
    const d = this.#data;
    if (!d) return;
    const W = this.#W;
    const buckets = d.buckets;
    const series = this.#series;
    const width = Math.max(300, Math.min(760, this.#width));
    const height = Math.round(Math.max(230, Math.min(360, width * 0.55)));
    const pad = { l: 44, r: 12, t: 12, b: 48 };
    const values = series.flatMap((m) => buckets.map((b) => m.bleu[b])).filter(Number.isFinite);
    const top = Math.max(TICK * 5, Math.ceil(Math.max(0, ...values) / TICK) * TICK);
    const x = (i) => pad.l + ((i + 0.5) * (width - pad.l - pad.r)) / buckets.length;
    const y = (v) => pad.t + (1 - v / top) * (height - pad.t - pad.b);
    const svg = this.#e.svg;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    const title = s('title', { text: W.chartLabel });
    const desc = s('desc', { text: series.map((m) => this.#describe(m)).join('; ') });
    const grid = [];
    for (let v = 0; v <= top; v += TICK) {
      grid.push(s('line', { class: 'bl-bleu-grid', x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }),
        s('text', { class: 'bl-bleu-tick', x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end', text: String(v) }));
    }
    const labels = buckets.map((b, i) =>
      s('text', { class: 'bl-bleu-tick', x: x(i), y: height - pad.b + 18, 'text-anchor': 'middle', text: b.replace('-', '–') }));
    const axes = [
      s('text', { class: 'bl-bleu-axis', x: pad.l + (width - pad.l - pad.r) / 2, y: height - 8, 'text-anchor': 'middle', text: W.axisX }),
      s('text', { class: 'bl-bleu-axis', transform: `translate(12 ${pad.t + (height - pad.t - pad.b) / 2}) rotate(-90)`, 'text-anchor': 'middle', text: W.axisY }),
    ];
    const lines = series.map((m) => {
      const pts = buckets.map((b, i) => [i, m.bleu[b]]).filter(([, v]) => Number.isFinite(v));
      const cls = `bl-bleu-line is-${seriesKind(m)} is-${m.kind}`;
      return s('g', { class: cls, 'data-model': m.model, 'data-series': m.kind },
        s('polyline', { points: pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }),
        pts.map(([i, v]) => this.#marker(m, buckets[i], x(i), y(v), v)));
    });
    svg.replaceChildren(title, desc, ...grid, ...labels, ...axes, ...lines);
    svg.setAttribute('aria-label', W.chartLabel);
    this.#renderLegend(series);
    this.#renderTable(series);
  }

  #marker(m, bucket, cx, cy, v) {
    const data = { 'data-model': m.model, 'data-scoring': m.scoring, 'data-bucket': bucket, 'data-bleu': String(v), 'data-series': m.kind };
    return m.kind === 'run'
      ? s('rect', { class: 'bl-bleu-point', x: cx - 4, y: cy - 4, width: 8, height: 8, ...data })
      : s('circle', { class: 'bl-bleu-point', cx, cy, r: 3.5, ...data });
  }

  #sentences(m) {
    return Object.values(m.sentences ?? {}).reduce((a, b) => a + b, 0);
  }

  #legendText(m) {
    const W = this.#W;
    const n = this.#sentences(m);
    return `${this.#name(m)} · ${m.kind === 'run' ? W.yours(n, this.#run?.partial) : W.published(n)}`;
  }

  #renderLegend(series) {
    this.#e.legend.replaceChildren(...series.map((m) =>
      h('li', { class: `is-${seriesKind(m)} is-${m.kind}` },
        h('span', { class: 'bl-bleu-swatch', 'aria-hidden': 'true' }), h('span', { text: this.#legendText(m) }))));
  }

  #renderTable(series) {
    const W = this.#W;
    const buckets = this.#data.buckets;
    this.#e.summary.textContent = W.numbers;
    const cell = (m, b) => {
      const v = m.bleu[b];
      const n = m.sentences?.[b] ?? 0;
      return h('td', { 'data-bleu': Number.isFinite(v) ? String(v) : '', 'data-bucket': b, 'data-model': m.model, 'data-series': m.kind },
        Number.isFinite(v) ? `${v.toFixed(2)} (${n})` : W.noValue);
    };
    this.#e.table.replaceChildren(
      h('caption', { text: W.chartLabel }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: W.bucketHead }),
        series.map((m) => h('th', { scope: 'col', text: this.#legendText(m) })))),
      h('tbody', {}, buckets.map((b) => h('tr', {}, h('th', { scope: 'row', text: b }), series.map((m) => cell(m, b))))),
    );
  }

  #describe(m) {
    const pts = this.#data.buckets.map((b) => [b, Number.isFinite(m.bleu[b]) ? m.bleu[b].toFixed(1) : this.#W.noValue]);
    return this.#W.describe(this.#legendText(m), pts);
  }
}
