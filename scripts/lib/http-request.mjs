// What scripts/serve.mjs reads from a request: the path of its target, its byte range and the
// content codings it accepts. Pure functions over header text, so the odd cases are easy to test.

// RFC 3986 path characters, one segment at a time; the query is not the server's business.
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;

// -> the path of a request target, still percent-encoded, or null when the target is not one
// a static server can answer (RFC 9112 §3.2): anything but origin-form ('/path?query') or
// absolute-form ('http://host/path'), a character a path may not hold, a broken %-escape, or
// one that does not decode to UTF-8. Node hands the target over unchecked, and the WHATWG URL
// parser reads '//host:port/' as a host, so both would throw on input any client can send.
export function targetPath(target) {
  let rest = target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (absolute) {
    try {
      new URL(absolute[0]); // only to refuse a bad host or port
    } catch {
      return null;
    }
    rest = target.slice(absolute[0].length) || '/';
  }
  const query = rest.indexOf('?');
  const urlPath = query < 0 ? rest : rest.slice(0, query);
  if (!PATH.test(urlPath)) return null;
  try {
    decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  return urlPath;
}

// -> {start, end} (inclusive) for a Range header on a file of `size` bytes, 'unsatisfiable',
// or null to ignore the header and send the whole file. RFC 9110 §14.2 lets a server ignore
// a Range it does not like: malformed ones, and several ranges (multipart bodies buy nothing
// for a model or a wasm file).
export function byteRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

// -> the content codings the server can send that an Accept-Encoding header accepts, best
// first: br (smaller), then gzip. q=0 refuses a coding; '*' stands for the ones not named.
export function acceptedEncodings(header = '') {
  const weights = new Map();
  for (const item of header.toLowerCase().split(',')) {
    const [name, ...params] = item.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  return ['br', 'gzip'].filter((coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0);
}
