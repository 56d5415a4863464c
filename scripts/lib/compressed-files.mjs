// Compressed copies of served files, made on first request and kept in memory.
//
// Lazily rather than at startup: the server has four models (two of them 19 MB f32 ones that
// the page loads only on request) and does not know which a visitor will ask for; compressing
// them all up front would cost a minute of CPU at every start. Kept in memory, never written
// next to the files, so the repository stays as it is. An entry is keyed by the file's mtime and
// size as well as its path, so a rebuilt engine or a re-exported model is compressed again.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

// Brotli's top quality (11) takes 0.5 s on the wasm but 9 s on the 5.2 MB model and 37 s on
// an f32 one, all on the first request for the file; quality 9 makes the model in 0.15 s and
// only 0.5% bigger (measured: README, "Serving"). zlib runs on libuv's thread pool either way,
// so other requests are not held up.
const BROTLI_MAX_QUALITY_BYTES = 1 << 20;

const ENCODERS = {
  br: (bytes) =>
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: bytes.length <= BROTLI_MAX_QUALITY_BYTES ? 11 : 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => gzip(bytes, { level: 9 }),
};

// Types worth trying; images are compressed already.
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.md', '.wasm', '.safetensors']);
const MIN_BYTES = 256; // below this the coding's own overhead eats the gain
const MAX_BYTES = 64 << 20; // a bigger file is streamed as it is rather than held in memory
const MIN_SAVING = 0.05; // a coding must save at least this share of the file to be sent

export function compressible(ext, size) {
  return COMPRESSIBLE.has(ext) && size >= MIN_BYTES && size <= MAX_BYTES;
}

// -> Promise<Buffer | null>: bytes in `coding` ('br' or 'gzip'), or null when that saves less
// than MIN_SAVING. The server's choice, and the precompressed copies scripts/site writes.
export async function compress(bytes, coding) {
  const out = await ENCODERS[coding](bytes);
  return out.length <= bytes.length * (1 - MIN_SAVING) ? out : null;
}

export function createCompressedFiles() {
  const cache = new Map(); // `${coding} ${file}` -> {stamp, promise: Promise<Buffer | null>}

  // -> Promise<Buffer | null>: the file (whose stat is `info`) in `coding`, or null when the
  // coding does not save enough or the file changed while it was read.
  return function compressed(file, info, coding) {
    const key = `${coding} ${file}`;
    const stamp = `${info.mtimeMs} ${info.size}`;
    const hit = cache.get(key);
    if (hit?.stamp === stamp) return hit.promise;
    const forget = () => cache.get(key)?.promise === promise && cache.delete(key);
    const promise = readFile(file).then(async (bytes) => {
      if (bytes.length !== info.size) {
        forget();
        return null;
      }
      return compress(bytes, coding);
    });
    promise.catch(forget);
    cache.set(key, { stamp, promise });
    return promise;
  };
}
