// Debian's Chromium as every headless run here starts it: tests/browser/ and scripts/bench
// --browser. No tool downloads a browser of its own; CHROMIUM overrides the path.
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// No sandbox (root), no GPU, and no network of the browser's own.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// The error for a launch that failed, saying how to install the browser.
export function cannotStart(e) {
  return new Error(`cannot start ${CHROMIUM} (scripts/setup browser installs it): ${e.message}`);
}
