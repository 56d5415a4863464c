// One small line chart of the timelapse: the frames' values of one or more measures against
// the step (a log scale: the snapshots are log-spaced, so the early ones get room), an optional
// flat reference line (the plain diagonal's accuracy), and the current frame marked on every
// series. Inline SVG from the file's numbers only; its <desc> and the caption under it say the
// current values in words, so nothing is only a picture.
//
// Automation hooks (stable): the svg has data-role given by the caller; each series a
// g[data-series][data-count]; the reference line data-series="<key>" data-value; the current
// frame's marks data-role="current-mark" with data-step, and a circle per series with data-value.

import { h, s } from '../ui/dom.js';
import { logStep } from './timelapse.js';

export class FrameChart {
  #e = {};
  #width = 420;
  #last = null; // the last draw's arguments, to redraw at a new width

  constructor(container, { role }) {
    const e = this.#e;
    e.title = h('h3', { class: 'lr-chart-title' });
    e.svg = s('svg', { class: 'lr-chart', 'data-role': role, role: 'img' });
    e.legend = h('ul', { class: 'lr-legend' });
    e.text = h('p', { class: 'lr-chart-text' });
    e.fig = h('figure', { class: 'lr-figure' }, e.title, e.svg, e.legend, e.text);
    container.append(e.fig);
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        const w = Math.round(e.fig.clientWidth);
        if (w > 0 && Math.abs(w - this.#width) > 8) {
          this.#width = w;
          if (this.#last) this.draw(this.#last);
        }
      }).observe(e.fig);
    }
  }

  // title; series [{key, name, points: [[step, v]]}]; reference {key, name, value} | null;
  // yMax, ticks, fmt (a tick's words), value (a point's words); steps: every frame's step (the
  // x axis's extent); current: the current frame's step; axis: the x axis's words; now: (name,
  // value words) -> the caption's part for one series.
  draw(o) {
    this.#last = o;
    const e = this.#e;
    const width = Math.max(260, Math.min(640, this.#width));
    const height = Math.round(Math.max(160, Math.min(220, width * 0.45)));
    const pad = { l: 44, r: 12, t: 10, b: 36 };
    const xMax = Math.max(1, logStep(Math.max(...o.steps)));
    const x = (step) => pad.l + (logStep(step) / xMax) * (width - pad.l - pad.r);
    const y = (v) => pad.t + (1 - Math.max(0, Math.min(v, o.yMax)) / o.yMax) * (height - pad.t - pad.b);
    const svg = e.svg;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('aria-label', o.title);
    e.title.textContent = o.title;
    const grid = o.ticks.flatMap((v) => [
      s('line', { class: 'lr-grid', x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }),
      s('text', { class: 'lr-tick', x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end', text: o.fmt(v) }),
    ]);
    const top = Math.max(...o.steps);
    const xTicks = [0, 10, 100, 1000, 10000, 100000].filter((v) => v <= top)
      .map((v) => s('text', { class: 'lr-tick', x: x(v), y: height - pad.b + 16, 'text-anchor': 'middle', text: v >= 1000 ? `${v / 1000}k` : String(v) }));
    const axis = s('text', { class: 'lr-axis', x: pad.l + (width - pad.l - pad.r) / 2, y: height - 4, 'text-anchor': 'middle', text: o.axis });
    const ref = o.reference && o.reference.value !== null
      ? s('line', { class: `lr-ref is-${o.reference.key}`, 'data-series': o.reference.key, 'data-value': o.reference.value,
        x1: pad.l, x2: width - pad.r, y1: y(o.reference.value), y2: y(o.reference.value) })
      : null;
    const lines = o.series.map((sr) => s('g', { class: `lr-line is-${sr.key}`, 'data-series': sr.key, 'data-count': sr.points.length },
      s('polyline', { points: sr.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ') }),
      sr.points.map(([a, b]) => s('circle', { class: 'lr-point', cx: x(a).toFixed(1), cy: y(b).toFixed(1), r: 2.5 }))));
    const at = o.series.map((sr) => ({ sr, p: sr.points.find(([a]) => a === o.current) ?? null }));
    const mark = s('g', { class: 'lr-current', 'data-role': 'current-mark', 'data-step': o.current },
      s('line', { class: 'lr-current-line', x1: x(o.current), x2: x(o.current), y1: pad.t, y2: height - pad.b }),
      at.filter((a) => a.p).map(({ sr, p }) => s('circle', { class: `lr-current-point is-${sr.key}`, 'data-series': sr.key, 'data-value': p[1],
        cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 5.5 })));
    const words = at.map(({ sr, p }) => o.now(sr.name, p ? o.value(p[1]) : '—'));
    if (o.reference && o.reference.value !== null) words.push(o.now(o.reference.name, o.value(o.reference.value)));
    svg.replaceChildren(s('title', { text: o.title }), s('desc', { text: words.join('; ') }), ...grid, ...xTicks, axis, ...(ref ? [ref] : []), ...lines, mark);
    e.legend.replaceChildren(...[...o.series, ...(ref ? [{ ...o.reference, isRef: true }] : [])].map((sr) =>
      h('li', { class: `is-${sr.key}${sr.isRef ? ' is-ref' : ''}` }, h('span', { class: 'lr-swatch', 'aria-hidden': 'true' }), sr.name)));
    e.text.textContent = words.join(' · ');
  }
}
