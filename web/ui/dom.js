// Element building without innerHTML: user text (sentences, tokens) only ever becomes
// textContent or attribute values, never markup. Works inside a shadow root as well, since
// nothing here looks elements up in a global document.

export const SVG_NS = 'http://www.w3.org/2000/svg';

// h('div', {class: 'x', dataset: {row: 1}, on: {click: f}}, child, 'text', ...)
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else if (key === 'style') Object.assign(el.style, value); // CSSOM, allowed under a strict CSP
    else if (key === 'text') el.textContent = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

// Four significant digits for people; data-* attributes carry the exact value instead.
export function fmt(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  return x.toFixed(digits);
}

// Tokens as the page shows them: the end-of-sentence column gets a readable label.
// What the output shows for a finished translation without a word (the model wrote </s> first),
// so that an empty result reads as the model's answer rather than as a page still waiting.
export function emptyTranslationNote(S) {
  return h('span', { class: 'bl-empty-translation', 'data-role': 'empty-translation', text: S.emptyTranslation });
}

export function tokenLabel(tok) {
  return tok === '</s>' ? '⟨/s⟩' : tok;
}

// Each output token with the spacing and capitals of the detokenized text, so the words that
// appear one by one add up to exactly the finished translation.
export function pieces(tokens, text) {
  const lower = text.toLowerCase();
  let at = 0;
  return tokens.map((tok, i) => {
    const k = lower.indexOf(tok.toLowerCase(), at);
    if (k < 0 || /\S/.test(text.slice(at, k))) return { sep: i ? ' ' : '', text: tok };
    const piece = { sep: text.slice(at, k), text: text.slice(k, k + tok.length) };
    at = k + tok.length;
    return piece;
  });
}

let measureCtx = null;

// Text width in px without touching the document: an offscreen canvas measures it.
export function textWidth(text, font) {
  if (!measureCtx) {
    const canvas =
      typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    measureCtx = canvas.getContext('2d');
  }
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}
