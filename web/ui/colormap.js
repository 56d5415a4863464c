// Colour scales. Weights use viridis (perceptually uniform, readable with every common
// colour-vision deficiency, and in greyscale); signed values (raw scores, the context vector)
// use the PuOr diverging scheme, which is colour-blind safe as well. Both serve the light and
// the dark themes unchanged (widget/theme.js): viridis's lightness rises with the weight, so
// on either card more weight is a brighter cell, and one legend fits both.

// matplotlib's viridis sampled at 0, 0.1, ..., 1; linear interpolation between neighbours
// stays within a couple of levels of the 256-entry table.
const VIRIDIS = [
  '#440154', '#482475', '#414487', '#355f8d', '#2a788e', '#21918c', '#22a884', '#44bf70',
  '#7ad151', '#bddf26', '#fde725',
].map(rgb);

// ColorBrewer PuOr, from -1 (purple) through 0 (near white) to +1 (orange).
const PUOR = ['#542788', '#998ec3', '#f7f7f7', '#f1a340', '#b35806'].map(rgb);

function rgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function mix(stops, t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((a, k) => Math.round(a + (stops[i + 1][k] - a) * f));
}

function sample(stops, t) {
  const c = mix(stops, t);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

// t in [0, 1] -> CSS colour
export function viridis(t) {
  return sample(VIRIDIS, t);
}

// v in [-1, 1] -> CSS colour
export function diverging(v) {
  return sample(PUOR, (v + 1) / 2);
}

// Black or white text on top of viridis(t), whichever contrasts more (WCAG relative
// luminance: the two contrasts are equal where L = 0.179).
export function inkOn(t) {
  const [r, g, b] = mix(VIRIDIS, t).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#000' : '#fff'; // both >= 4.58:1
}

// CSS linear-gradient of the whole scale, for legends.
export function gradientCss(scale = viridis, direction = 'to right') {
  const stops = [];
  for (let i = 0; i <= 10; i++) stops.push(`${scale(i / 10)} ${i * 10}%`);
  return `linear-gradient(${direction}, ${stops.join(', ')})`;
}
