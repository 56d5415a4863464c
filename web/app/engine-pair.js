// The two-model pages' engines (compare.html, why.html): one module worker per model (their
// CSP has no 'unsafe-eval', so Embind may only run in workers), both downloads shown as one,
// and one sentence decoded by both into a two-model view (ui/compare-view.js,
// ui/bottleneck-view.js), each model's steps as soon as its worker sends them.

import { EngineClient } from '../engine/client.js';
import { RELAXED_REASON } from '../lib/relaxed.js';
import { SIDES } from '../ui/lockstep.js';

export class EnginePair {
  clients = {}; // side -> EngineClient
  engines = {}; // side -> {info, engine} once loaded
  results = {}; // side -> the last sentence's translate() result (null: it failed)
  #progress = {}; // side -> {loaded, total}

  get ready() {
    return SIDES.every((s) => this.engines[s]);
  }

  // models: {a, b}, each {url, label}. Both downloads go to one progress bar and its text; the
  // view gets setModel(side, {info, label}) as each model is ready. Rejects with the first
  // failure (EngineClient.load()'s code, or 'no-wasm'; the models' labels before its message).
  async load(models, { simd, view, bar, text }) {
    if (typeof WebAssembly !== 'object') {
      throw Object.assign(new Error('WebAssembly is not available'), { code: 'no-wasm' });
    }
    try {
      await Promise.all(SIDES.map(async (side) => {
        this.clients[side] = new EngineClient();
        this.engines[side] = await this.clients[side].load({
          model: models[side].url,
          simd,
          onProgress: (p) => {
            this.#progress[side] = p;
            showDownload(bar, text, this.#downloaded());
          },
        });
        view.setModel(side, { info: this.engines[side].info, label: models[side].label });
      }));
    } catch (e) {
      throw Object.assign(new Error(`${SIDES.map((s) => models[s].label).join(', ')}: ${e.message}`), { code: e.code });
    }
  }

  // The status line: the engine variant and why it was chosen, then each model's size, dtype
  // and kind (kind(info) in the page's words), in S's language; '—' until both are loaded.
  status(S, models, { simd, kind }) {
    if (!this.ready) return `${S.engine}: —`;
    const { engine } = this.engines.a;
    const reason = simd === false ? 'forced by ?simd=0'
      : engine.kernels === 'wasm-relaxed' ? RELAXED_REASON : engine.reason;
    const each = SIDES.map((s) => {
      const { info } = this.engines[s];
      const size = info.fileBytes >= 1e6 ? `${(info.fileBytes / 1e6).toFixed(1)} MB` : `${(info.fileBytes / 1e3).toFixed(1)} kB`;
      return `${S.modelLabel(models[s].label)}: ${size}, ${info.dtype}, ${kind(info)}`;
    });
    return [`${S.engine}: ${S.engineUsed(engine.variant, reason)}`, ...each].join(' · ');
  }

  #downloaded() {
    const parts = SIDES.map((s) => this.#progress[s]).filter(Boolean);
    const loaded = parts.reduce((n, p) => n + p.loaded, 0);
    const known = parts.length === SIDES.length && parts.every((p) => p.total);
    return { loaded, total: known ? parts.reduce((n, p) => n + p.total, 0) : 0 };
  }

  // Both models on text, into the view (setColumns, push, setResult, finish). live() false: a
  // newer sentence has taken over, and this one's late replies are dropped. -> the first
  // failure that is not a cancellation, or null; a side that fails finishes, the other goes on.
  async translate(text, view, live) {
    this.results = { a: null, b: null };
    const runs = SIDES.map((side) =>
      this.clients[side]
        .translate(text, {
          onStart: ({ sourceTokens }) => live() && view.setColumns(side, sourceTokens),
          onStep: (step) => live() && view.push(side, step),
        })
        .then(({ result }) => {
          if (!live()) return;
          this.results[side] = result;
          view.setResult(side, result);
          view.finish(side);
        })
        .catch((e) => {
          if (!live()) return;
          view.finish(side);
          throw e;
        }));
    const outcomes = await Promise.allSettled(runs);
    return outcomes.find((o) => o.status === 'rejected' && o.reason?.name !== 'AbortError')?.reason ?? null;
  }
}

// Both downloads as one bar, and the megabytes received (of the total, once known).
function showDownload(bar, text, { loaded, total }) {
  if (total) {
    bar.max = total;
    bar.value = loaded;
  } else bar.removeAttribute('value');
  text.textContent = `${(loaded / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB`;
}
