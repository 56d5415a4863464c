// The argument checks every method of the API shares (bahdanau.js, edits.js): one wording of
// the TypeErrors and RangeErrors, and one way to show the value that was wrong.

// Every options argument: undefined and null both mean "the defaults"; anything else that is
// not an object is a mistake worth a clear TypeError (not a silent default).
export function optionsArg(options, method) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TypeError(`${method}(): options must be an object, got ${describe(options)}`);
  }
  return options;
}

// The core's bound on one call's text (bl::kMaxTextChars), in characters (code points), and its
// words: the core refuses a longer text itself; this check is for what it never sees whole, a
// paragraph that translate() splits into sentences before calling it. -> a message, or null.
export const MAX_TEXT_CHARS = 2000;
export function textTooLong(text) {
  let chars = 0;
  for (const _ of text) chars++; // eslint-disable-line no-unused-vars
  return chars <= MAX_TEXT_CHARS ? null
    : `text has ${chars} characters; at most ${MAX_TEXT_CHARS} are translated at once (split it into sentences or lines)`;
}

export function checkInt(name, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new RangeError(`${name} must be an integer in ${lo}..${hi}, got ${describe(value)}`);
  }
}

export function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return `a value of type ${typeof v}`;
}
