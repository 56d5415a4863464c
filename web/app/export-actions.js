// The result card's export row: the matrix on show as SVG or PNG, and its permalink copied (or
// shown, selected, where the clipboard is refused). The page says how to draw and link the
// view on show; this module wires the buttons.
import { download, matrixSvg, svgToPng } from '../ui/export.js';

// $: the page's data-role lookup. svg() -> matrixSvg()'s {source, ...}; link() -> the URL;
// strings() -> the string table now; error(message) shows a failure.
export function wireExport($, { svg, link, strings, error }) {
  $('export-svg').addEventListener('click', () => {
    download(document.body, new Blob([svg().source], { type: 'image/svg+xml' }), 'attention.svg');
  });
  $('export-png').addEventListener('click', async () => {
    try {
      download(document.body, await svgToPng(svg()), 'attention.png');
    } catch (e) {
      error(e.message);
    }
  });
  $('permalink').addEventListener('click', () => copyLink($, link(), strings()));
}

async function copyLink($, url, S) {
  const note = $('permalink-note');
  const field = $('permalink-field');
  field.value = url;
  try {
    await navigator.clipboard.writeText(url);
    note.textContent = S.copied;
    field.hidden = true;
  } catch {
    // No clipboard permission: show the link, selected, for copying by hand.
    note.textContent = S.copyFailed;
    field.hidden = false;
    field.focus();
    field.select();
  }
}

// The matrix on show as SVG, captioned with the sentence and the words shown so far as the
// output line shows them (detokenized: "J'ai un"), not tokens; the whole translation once all
// of it is shown. sentence: {text, sourceTokens, pieces}; whole: {text, words} or null;
// caption: a Transformer's layer and head (null for an RNN).
export function figureSvg({ sentence, rows, whole, caption, legend }) {
  const out = rows.map((r, i) => {
    const piece = sentence.pieces?.[i] ?? { sep: ' ', text: r.word };
    return (i ? piece.sep : '') + piece.text;
  }).join('');
  return matrixSvg({
    columns: sentence.sourceTokens,
    rows,
    caption: [sentence.text.trim(), `→ ${whole && rows.length === whole.words ? whole.text : `${out} …`}`, caption],
    legend,
  });
}
