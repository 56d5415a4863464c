// The command line's bytes as typed. Node decodes argv before a script sees it, and turns
// invalid UTF-8 into U+FFFD on the way, so scripts/translate could not tell "caf\xe9" from a
// correct "caf\ufffd" and translated it. The native CLI refuses such text; so must we, with the
// same words (utf8Error is src/core/utf8.cpp's utf8_decode_one, message for message).
import { readFileSync } from 'node:fs';

// The script's arguments (process.argv.slice(2)) as Buffers, from /proc/self/cmdline, where
// Linux keeps them as the kernel received them. null where that file is not there (another
// OS) or does not end with the same arguments.
export function rawArgs(argv = process.argv.slice(2)) {
  let all;
  try {
    all = readFileSync('/proc/self/cmdline');
  } catch {
    return null;
  }
  const parts = [];
  let start = 0;
  for (let i = 0; i < all.length; i++) {
    if (all[i] === 0) {
      parts.push(all.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < all.length) parts.push(all.subarray(start));
  if (parts.length < argv.length) return null;
  const tail = parts.slice(parts.length - argv.length);
  // each one must decode to what Node made of it, or the two lists are not the same arguments
  const same = tail.every((b, i) => b.toString('utf8') === argv[i]);
  return same ? tail : null;
}

const MIN_FOR_LEN = [0, 0, 0x80, 0x800, 0x10000];

// null for valid UTF-8, else "invalid UTF-8 at byte N: why" (N from 0), as the core says it.
export function utf8Error(bytes) {
  let pos = 0;
  while (pos < bytes.length) {
    const b0 = bytes[pos];
    if (b0 < 0x80) {
      pos++;
      continue;
    }
    let len;
    let c;
    let why = null;
    if (b0 < 0xc0) why = 'unexpected continuation byte';
    else if (b0 < 0xe0) [len, c] = [2, b0 & 0x1f];
    else if (b0 < 0xf0) [len, c] = [3, b0 & 0x0f];
    else if (b0 < 0xf8) [len, c] = [4, b0 & 0x07];
    else why = 'invalid byte';
    for (let k = 1; !why && k < len; k++) {
      if (pos + k >= bytes.length || (bytes[pos + k] & 0xc0) !== 0x80) why = 'truncated sequence';
      else c = (c << 6) | (bytes[pos + k] & 0x3f);
    }
    if (!why && c < MIN_FOR_LEN[len]) why = 'overlong encoding';
    if (!why && c >= 0xd800 && c <= 0xdfff) why = 'surrogate code point';
    if (!why && c > 0x10ffff) why = 'code point above U+10FFFF';
    if (why) return `invalid UTF-8 at byte ${pos}: ${why}`;
    pos += len;
  }
  return null;
}
