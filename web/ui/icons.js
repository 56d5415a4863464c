// The playback buttons' icons, built as SVG elements (no markup strings), for the widget and
// the comparison view. Decorative: every button carries its own accessible name.

import { s } from './dom.js';

const PATHS = {
  first: 'M6 5h2v14H6zM20 5v14L9 12z',
  back: 'M17 5v14L6 12z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  forward: 'M7 5v14l11-7z',
  last: 'M4 5v14l11-7zM16 5h2v14h-2z',
};

export function icon(name) {
  return s('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', 'data-icon': name }, s('path', { d: PATHS[name] }));
}
