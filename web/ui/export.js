// The attention matrix as a standalone SVG file (and a PNG drawn from it): the same colours
// and numbers as the page, on a white background so it prints and pastes anywhere. Built
// with DOM calls and serialised, so tokens are always escaped.

import { fmt, s, textWidth, tokenLabel } from './dom.js';
import { inkOn, viridis } from './colormap.js';

// CJK-capable faces before the generic family: an en-zh matrix's row headers are ideographs,
// and a file opened on another machine must find a face that has them (macOS: PingFang SC,
// Hiragino; Windows: Microsoft YaHei; Linux: Noto Sans CJK, Source Han Sans, WenQuanYi), the
// same list as ui/ui.css's --bl-font.
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", "PingFang SC", "Hiragino Sans GB", ' +
  '"Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif';
const CELL = 36;
// Measured with this browser's fonts, plus slack for a viewer whose fonts run wider.
const width14 = (text) => textWidth(text, `14px ${FONT}`) * 1.08 + 2;

// -> {source, width, height}. columns: source tokens; rows: [{word, weights, edited}] (edited:
// weights given by an attention edit, marked ✎ and outlined dashed, never to pass for the
// model's own); caption: lines of text above the matrix (the sentence, its translation, and a
// Transformer's layer and head).
export function matrixSvg({ columns, rows, caption = [], legend = 'attention weight' }) {
  const lines = [].concat(caption).filter(Boolean);
  const rowLabel = (r) => `${r.edited ? '✎ ' : ''}${tokenLabel(r.word)}`;
  const labelW = Math.max(40, ...rows.map((r) => width14(rowLabel(r)))) + 16;
  const headH = Math.max(40, ...columns.map((t) => width14(tokenLabel(t)))) + 16;
  const titleH = lines.length ? 16 + 22 * lines.length : 8;
  const x0 = 16 + labelW;
  const y0 = titleH + headH;
  const gridW = columns.length * CELL;
  const legendW = Math.max(160, Math.min(gridW, 280));
  const captionW = Math.max(0, ...lines.map((l) => textWidth(l, `600 15px ${FONT}`) * 1.08 + 32));
  const width = Math.ceil(Math.max(x0 + gridW + 16, x0 + legendW + 16, captionW, 320));
  const height = Math.ceil(y0 + rows.length * CELL + 64);

  const svg = s('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    'font-family': FONT,
    'font-size': 14,
  });
  svg.append(s('rect', { width, height, fill: '#ffffff' }));
  lines.forEach((line, k) => {
    svg.append(s('text', { x: 16, y: 26 + 22 * k, 'font-size': 15, 'font-weight': k ? 400 : 600, fill: '#111', text: line }));
  });

  columns.forEach((tok, j) => {
    const x = x0 + j * CELL + CELL / 2 + 5;
    svg.append(s('text', { x, y: y0 - 8, transform: `rotate(-90 ${x} ${y0 - 8})`, fill: '#333', text: tokenLabel(tok) }));
  });
  rows.forEach((r, i) => {
    const y = y0 + i * CELL;
    svg.append(s('text', { x: x0 - 8, y: y + CELL / 2 + 5, 'text-anchor': 'end', fill: r.edited ? '#c2410c' : '#111', text: rowLabel(r) }));
    r.weights.forEach((w, j) => {
      const x = x0 + j * CELL;
      const cell = s('rect', { x, y, width: CELL, height: CELL, fill: viridis(w), 'data-weight': String(w) });
      cell.append(s('title', { text: `${tokenLabel(columns[j])} → ${tokenLabel(r.word)}: ${fmt(w, 4)}` }));
      svg.append(cell);
      if (w >= 0.1) {
        svg.append(s('text', {
          x: x + CELL / 2, y: y + CELL / 2 + 4, 'text-anchor': 'middle', 'font-size': 11,
          fill: inkOn(w), text: fmt(w, 2).replace(/^0/, ''),
        }));
      }
    });
  });
  svg.append(s('rect', { x: x0 - 0.5, y: y0 - 0.5, width: gridW + 1, height: rows.length * CELL + 1, fill: 'none', stroke: '#999' }));
  rows.forEach((r, i) => r.edited && svg.append(s('rect', { x: x0 + 1, y: y0 + i * CELL + 1, width: gridW - 2, height: CELL - 2,
    fill: 'none', stroke: '#c2410c', 'stroke-width': 2, 'stroke-dasharray': '5 3' })));

  // Legend: the scale as 50 slices (a gradient element would need ids, which clash when two
  // exported files are pasted into one document).
  const ly = y0 + rows.length * CELL + 22;
  for (let k = 0; k < 50; k++) {
    svg.append(s('rect', { x: x0 + (k * legendW) / 50, y: ly, width: legendW / 50 + 0.5, height: 10, fill: viridis(k / 49) }));
  }
  svg.append(s('text', { x: x0, y: ly + 26, 'font-size': 12, fill: '#333', text: '0' }));
  svg.append(s('text', { x: x0 + legendW, y: ly + 26, 'font-size': 12, fill: '#333', 'text-anchor': 'end', text: '1' }));
  svg.append(s('text', { x: x0 + legendW / 2, y: ly + 26, 'font-size': 12, fill: '#333', 'text-anchor': 'middle', text: legend }));
  return { source: new XMLSerializer().serializeToString(svg), width, height };
}

// -> Promise<Blob> (image/png) at `scale` times the SVG size.
export function svgToPng({ source, width, height }, scale = 2) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const ctx = canvas.getContext('2d');
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png');
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('could not draw the SVG'));
    };
    img.src = url;
  });
}

// Saves a Blob under a file name through a temporary link inside `root` (no global lookups).
export function download(root, blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
