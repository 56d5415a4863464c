// Where we run. Node gets files by path and has no streamed-fetch progress to report for them;
// browsers and workers fetch URLs.
export const isNode =
  typeof process === 'object' &&
  typeof process.versions === 'object' &&
  typeof process.versions.node === 'string' &&
  typeof window === 'undefined';

// A macrotask boundary, so a caller animating steps() gets to paint between them. (setTimeout
// would be clamped to 4 ms after a few nested calls in browsers; a message is not.)
export function nextTask() {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        resolve();
      };
      ch.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
