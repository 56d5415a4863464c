// index.html's Matrix / Alignment lines switch (radio buttons name="view"). The colour legend
// belongs to the matrix: the lines draw a weight as their width and opacity, not in viridis,
// so the legend is hidden while they show.

const radios = (doc) => [...doc.querySelectorAll('input[name="view"]')];

// 'matrix' or 'lines': the view on show.
export function currentView(doc) {
  return radios(doc).find((r) => r.checked)?.value ?? 'matrix';
}

export function showView(doc, view) {
  for (const r of radios(doc)) r.checked = r.value === view;
  for (const el of doc.querySelectorAll('.view')) el.hidden = el.dataset.view !== view;
  const legend = doc.querySelector('.view-bar .legend');
  if (legend) legend.hidden = view !== 'matrix';
}

// onChange(view) after the user switches.
export function wireViews(doc, onChange) {
  for (const radio of radios(doc)) {
    radio.addEventListener('change', () => {
      const view = currentView(doc);
      showView(doc, view);
      onChange(view);
    });
  }
}

// The lines view spreads the words over its width: redraw() when that width changes.
export function redrawOnResize(el, redraw) {
  let lastWidth = 0;
  new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width !== lastWidth) {
      lastWidth = width;
      redraw();
    }
  }).observe(el);
}
