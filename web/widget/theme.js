// The widget's colour theme: the theme attribute, light, dark or auto (the default, and what
// any other value reads as), auto following the reader's prefers-color-scheme and switching
// live when it changes. The theme is resolved here rather than by CSS media queries alone, so
// that one value, data-theme="light" or "dark" on the shadow tree's .widget, says which design
// is on show: ui/widget-dark.css keys on it, and tests and host scripts can read it.
//
// Decisions:
// - Dark is its own palette (ui/widget-dark.css, the page's dark colours from ui.css), not an
//   inversion. The weights keep viridis (ui/colormap.js): its lightness rises with the weight,
//   so on the dark card as on the light one more weight is a brighter cell, and the legend,
//   the same gradient, still matches.
// - An export of the figure (ui/export.js, the page's SVG and PNG downloads) stays light
//   whatever the theme: a figure file goes into slides, papers and print, whose background is
//   unknown and mostly white, and one permalink should give every reader the same file, not
//   one that depends on their system's setting.

export const THEMES = ['light', 'dark', 'auto'];

const DARK_QUERY = '(prefers-color-scheme: dark)';

// The attribute's value -> 'light', 'dark' or 'auto' (case and spaces aside; anything else:
// auto, the default).
export function readTheme(value) {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return THEMES.includes(v) ? v : 'auto';
}

// A value that is neither absent nor one of THEMES, for the author's console: the figure
// itself shows auto, which is what a reader needs.
function badValue(value) {
  if (value === null || THEMES.includes(value.trim().toLowerCase())) return null;
  return `<attention-translator>: theme=${JSON.stringify(value.slice(0, 40))} is not light, dark or auto; auto is used`;
}

// target: the element that carries data-theme (the shadow tree's .widget); value(): the theme
// attribute's raw value. While connected, an auto theme follows the system setting.
export class WidgetTheme {
  #target;
  #value;
  #query = null;
  #warned = null;
  #onChange = () => this.apply();

  constructor(target, value) {
    this.#target = target;
    this.#value = value;
    this.apply();
  }

  // 'light' or 'dark', as drawn now.
  get resolved() {
    return this.#target.dataset.theme;
  }

  connect() {
    if (!this.#query && typeof matchMedia === 'function') {
      this.#query = matchMedia(DARK_QUERY);
      this.#query.addEventListener('change', this.#onChange);
    }
    this.apply();
  }

  disconnect() {
    this.#query?.removeEventListener('change', this.#onChange);
    this.#query = null;
  }

  apply() {
    const raw = this.#value();
    const theme = readTheme(raw);
    const systemDark = (this.#query ?? (typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null))?.matches ?? false;
    this.#target.dataset.theme = theme === 'dark' || (theme === 'auto' && systemDark) ? 'dark' : 'light';
    const warning = badValue(raw);
    if (warning && warning !== this.#warned) console.warn(warning);
    this.#warned = warning;
  }
}
