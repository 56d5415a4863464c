// The two curves of a training run, growing as it trains: the loss (the training batches'
// loss at each progress report, the held-out pairs' at each measurement) and the alignment
// accuracy against the gold links (all links, and the off-diagonal ones: the words French
// reorders, which a model that only walks down the diagonal gets wrong). Inline SVG drawn from
// the run's own reports; the same numbers are a table under a disclosure and each chart's
// description, so nothing is only a picture. ui/bleu-chart.js draws bands of sentence length,
// not a series over steps, so this is its own small chart.
//
// Automation hooks (stable): data-role="loss-chart" and "accuracy-chart"; each line
// data-series ("train", "heldout", "accuracy", "off-diagonal") and data-count (its points);
// data-role="curves-table", one row per measurement, with the exact numbers in data-steps,
// data-accuracy, data-off-diagonal and data-heldout ("null" where there is none).

import { h, s } from '../ui/dom.js';
import { niceTicks } from '../ui/ticks.js';

const MAX_POINTS = 600; // the training loss keeps at most this many points: halved when full

export class TrainingCurves {
  #S;
  #e = {};
  #train = []; // [steps, loss]
  #measures = []; // {steps, seconds, loss (the training loss then), heldoutLoss, accuracy, offDiagonal}
  #lastLoss = null;
  #scoring = 'additive';
  #width = 560;
  #queued = false;
  #tabled = -1; // the measurements the table holds, and in which words: it changes only with them
  #tabledS = null;

  constructor(container, { strings }) {
    this.#S = strings;
    const e = this.#e;
    e.loss = s('svg', { class: 'tr-chart', 'data-role': 'loss-chart', role: 'img' });
    e.acc = s('svg', { class: 'tr-chart', 'data-role': 'accuracy-chart', role: 'img' });
    e.lossTitle = h('h3', { class: 'tr-chart-title' });
    e.accTitle = h('h3', { class: 'tr-chart-title' });
    e.lossLegend = h('ul', { class: 'tr-legend' });
    e.accLegend = h('ul', { class: 'tr-legend' });
    e.lossText = h('p', { class: 'tr-chart-text', 'aria-live': 'off' });
    e.accText = h('p', { class: 'tr-chart-text', 'aria-live': 'off' });
    e.empty = h('p', { class: 'empty' });
    e.summary = h('summary');
    e.table = h('table', { class: 'tr-table', 'data-role': 'curves-table' });
    e.details = h('details', { class: 'tr-numbers' }, e.summary, h('div', { class: 'tr-table-scroll' }, e.table));
    const lossFig = h('figure', { class: 'tr-figure' }, e.lossTitle, e.loss, e.lossLegend, e.lossText);
    const accFig = h('figure', { class: 'tr-figure' }, e.accTitle, e.acc, e.accLegend, e.accText);
    e.root = h('div', { class: 'tr-curves' }, e.empty, h('div', { class: 'tr-figures' }, lossFig, accFig), e.details);
    container.replaceChildren(e.root);
    if (typeof ResizeObserver === 'function') {
      // Redrawn at its own width, so the text stays legible on a phone instead of scaling down.
      new ResizeObserver(() => {
        const w = Math.round(lossFig.clientWidth);
        if (w > 0 && Math.abs(w - this.#width) > 8) {
          this.#width = w;
          this.#schedule();
        }
      }).observe(lossFig);
    }
    this.#render();
  }

  setStrings(S) {
    this.#S = S;
    this.#render();
  }

  // The scoring kind of the run: without attention there is no alignment to score.
  setScoring(scoring) {
    this.#scoring = scoring;
    this.#schedule();
  }

  reset() {
    this.#train = [];
    this.#measures = [];
    this.#lastLoss = null;
    this.#render();
  }

  // A 'progress' report: {steps, loss}.
  addProgress({ steps, loss }) {
    if (!Number.isFinite(loss)) return;
    this.#lastLoss = loss;
    this.#train.push([steps, loss]);
    if (this.#train.length > MAX_POINTS) this.#train = this.#train.filter((_, i) => i % 2 === 0 || i === this.#train.length - 1);
    this.#schedule();
  }

  // A 'measure' report: {steps, seconds, heldoutLoss, alignment}.
  addMeasure({ steps, seconds, heldoutLoss, alignment }) {
    this.#measures.push({ steps, seconds, loss: this.#lastLoss, heldoutLoss: heldoutLoss ?? null,
      accuracy: alignment?.accuracy ?? null, offDiagonal: alignment?.offDiagonal ?? null });
    this.#schedule();
  }

  get measures() {
    return this.#measures.slice();
  }

  // One redraw per frame however many reports arrived: the main thread stays free for input.
  #schedule() {
    if (this.#queued) return;
    this.#queued = true;
    requestAnimationFrame(() => {
      this.#queued = false;
      this.#render();
    });
  }

  #render() {
    const S = this.#S;
    const e = this.#e;
    const m = this.#measures;
    const started = this.#train.length > 0 || m.length > 0;
    e.empty.textContent = S.curvesEmpty;
    e.empty.hidden = started;
    e.lossTitle.textContent = S.lossTitle;
    e.accTitle.textContent = S.accTitle;
    e.summary.textContent = S.curvesNumbers;
    const held = m.filter((x) => Number.isFinite(x.heldoutLoss)).map((x) => [x.steps, x.heldoutLoss]);
    const lossTop = Math.max(1, ...this.#train.map((p) => p[1]), ...held.map((p) => p[1]));
    const xMax = Math.max(10, this.#train.at(-1)?.[0] ?? 0, m.at(-1)?.steps ?? 0);
    const lossSeries = [
      { key: 'train', name: S.lossTrain, points: this.#train },
      { key: 'heldout', name: S.lossHeldout, points: held, marks: true },
    ];
    this.#chart(e.loss, S.lossTitle, lossSeries, { xMax, yMax: Math.ceil(lossTop), ticks: niceTicks(Math.ceil(lossTop)), fmt: (v) => String(v) });
    this.#legend(e.lossLegend, lossSeries);
    e.lossText.textContent = started ? S.lossSummary(this.#lastLoss, held.at(-1)?.[1] ?? null) : '';
    const none = this.#scoring === 'none';
    const accSeries = [
      { key: 'accuracy', name: S.accAll, points: none ? [] : m.filter((x) => Number.isFinite(x.accuracy)).map((x) => [x.steps, 100 * x.accuracy]), marks: true },
      { key: 'off-diagonal', name: S.accOff, points: none ? [] : m.filter((x) => Number.isFinite(x.offDiagonal)).map((x) => [x.steps, 100 * x.offDiagonal]), marks: true },
    ];
    this.#chart(e.acc, S.accTitle, accSeries, { xMax, yMax: 100, ticks: [0, 25, 50, 75, 100], fmt: (v) => `${v}%` });
    this.#legend(e.accLegend, accSeries);
    const lastAcc = [...m].reverse().find((x) => Number.isFinite(x.accuracy));
    e.accText.textContent = none ? S.accNone : lastAcc ? S.accSummary(lastAcc) : '';
    if (this.#tabled !== m.length || this.#tabledS !== S) this.#table(m);
  }

  #chart(svg, title, series, { xMax, yMax, ticks, fmt }) {
    const width = Math.max(260, Math.min(640, this.#width));
    const height = Math.round(Math.max(170, Math.min(240, width * 0.45)));
    const pad = { l: 44, r: 12, t: 10, b: 36 };
    const x = (v) => pad.l + (v / xMax) * (width - pad.l - pad.r);
    const y = (v) => pad.t + (1 - Math.min(v, yMax) / yMax) * (height - pad.t - pad.b);
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('aria-label', title);
    const grid = ticks.flatMap((v) => [
      s('line', { class: 'tr-grid', x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }),
      s('text', { class: 'tr-tick', x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end', text: fmt(v) }),
    ]);
    const xTicks = niceTicks(xMax).map((v) => s('text', { class: 'tr-tick', x: x(v), y: height - pad.b + 16, 'text-anchor': 'middle', text: String(v) }));
    const axis = s('text', { class: 'tr-axis', x: pad.l + (width - pad.l - pad.r) / 2, y: height - 4, 'text-anchor': 'middle', text: this.#S.axisSteps });
    const lines = series.map((sr) => s('g', { class: `tr-line is-${sr.key}`, 'data-series': sr.key, 'data-count': sr.points.length },
      s('polyline', { points: sr.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ') }),
      sr.marks ? sr.points.map(([a, b]) => s('circle', { class: 'tr-point', cx: x(a).toFixed(1), cy: y(b).toFixed(1), r: 3 })) : null));
    const desc = s('desc', { text: series.map((sr) => `${sr.name}: ${sr.points.length ? sr.points.at(-1)[1].toFixed(2) : '—'}`).join('; ') });
    svg.replaceChildren(s('title', { text: title }), desc, ...grid, ...xTicks, axis, ...lines);
  }

  #legend(ul, series) {
    ul.replaceChildren(...series.map((sr) => h('li', { class: `is-${sr.key}` }, h('span', { class: 'tr-swatch', 'aria-hidden': 'true' }), sr.name)));
  }

  #table(m) {
    const S = this.#S;
    this.#tabled = m.length;
    this.#tabledS = S;
    const cell = (v, d) => h('td', { text: Number.isFinite(v) ? v.toFixed(d) : '—' });
    const pctCell = (v) => h('td', { text: Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : '—' });
    this.#e.table.replaceChildren(
      h('thead', {}, h('tr', {}, [S.colSteps, S.colSeconds, S.colLoss, S.colHeldout, S.colAcc, S.colOff].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, m.map((r) => h('tr', { 'data-steps': r.steps, 'data-accuracy': r.accuracy ?? 'null', 'data-off-diagonal': r.offDiagonal ?? 'null', 'data-heldout': r.heldoutLoss ?? 'null' }, h('td', { text: String(r.steps) }), cell(r.seconds, 0), cell(r.loss, 3), cell(r.heldoutLoss, 3), pctCell(r.accuracy), pctCell(r.offDiagonal)))),
    );
  }
}
