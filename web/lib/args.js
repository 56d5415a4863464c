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
