// About five round gridline values from 0 to top (1, 2, 2.5 or 5 times a power of ten apart),
// for the small line charts of the training pages (train/curves.js, learn/chart.js's callers).
export function niceTicks(top) {
  const raw = top / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((k) => k >= raw) ?? raw;
  const out = [];
  for (let v = 0; v <= top + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}
