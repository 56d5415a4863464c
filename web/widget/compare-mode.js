// <attention-translator mode="compare">: the comparison view (ui/compare-view.js) inside the
// widget's shadow root. As in the single view, web/lib runs on the host page's main thread,
// with the page-wide translators the widget shares per model URL; here two of them, whose
// decode sessions (engine/session.js) are advanced in lockstep (one await for both), so
// position k of the figure is word k of each model as soon as both have computed it.
// mode="bottleneck" (bottleneck-mode.js) is this with another view and no scoring analysis.

import { DecodeSession } from '../engine/session.js';
import { isRow } from '../engine/steps.js';
import { COMPARE_MODELS, refusePair } from '../lib/catalogue.js';
import { PAIR_STRINGS } from '../ui/pair-strings.js';
import { CompareView } from '../ui/compare-view.js';
import { SIDES } from '../ui/lockstep.js';
import { STRINGS } from '../ui/strings.js';

export const COMPARE_DEFAULTS = { a: COMPARE_MODELS[0], b: COMPARE_MODELS[1] };

export class CompareMode {
  view;
  #host; // what the element lends (bahdanau-widget.js #pairHost): events, loading, state, status
  #job = 0;
  #models = { a: null, b: null }; // {url, label, translator}
  #settings = null;
  #progress = {};
  #lastStep = null;
  #analyse;
  #lang;

  // View: the two-model view to draw (CompareView's interface); analyse: time each model's
  // scoring and build the self-attention (a Transformer's real one, else the illustration)
  // once decoded.
  constructor(container, host, { lang, controls }, { View = CompareView, analyse = true } = {}) {
    this.#host = host;
    this.#analyse = analyse;
    this.#lang = lang;
    this.view = new View(container, { lang, controls, onChange: (view) => this.#onMove(view) });
  }

  // Both downloads as one bar, once both have said how big they are.
  #showProgress(side, p) {
    if (side === null) {
      this.#progress = {};
      this.#host.progress(null);
      return;
    }
    this.#progress[side] = p;
    const all = Object.values(this.#progress);
    if (all.length < SIDES.length || !all.every((x) => x.total)) return;
    this.#host.progress({ loaded: all.reduce((n, x) => n + x.loaded, 0), total: all.reduce((n, x) => n + x.total, 0) });
  }

  // The element's hooks follow the view (tests and authors read data-position, data-playing),
  // and each move fires one step event, as in the single view.
  #onMove(view) {
    const p = view.player;
    this.#host.position(p);
    const step = p.position >= 0 ? p.steps[p.position] : null;
    if (!step || step === this.#lastStep) return;
    this.#lastStep = step;
    const side = (st) => st && { word: st.word, weights: Array.from(st.alpha), end: !isRow(st) };
    this.#host.dispatch('step', { index: step.index, a: side(step.a), b: side(step.b) });
  }

  setLang(lang) {
    this.#lang = lang;
    this.view.setLang(lang);
    this.#renderStatus();
  }

  // The two models' labels and the engine variant, in the figure's language (once loaded).
  #renderStatus() {
    const { a, b } = this.#models;
    if (!a || !b) return;
    const S = STRINGS[this.#lang] ?? STRINGS.en;
    const { variant } = a.translator.engine;
    this.#host.status(`${[a, b].map((m) => S.modelLabel(m.label)).join(' · ')} · ${S.variantName(variant)}`, variant);
  }

  setControls(mode) {
    this.view.setControls(mode);
  }

  // Another mode took over: drop this one's decoding at its next step.
  stop() {
    this.#job++;
    this.view.player.pause();
  }

  // models: {a, b} as resolveWidgetModel gives them (null: refused). settings: {text, step,
  // autoplay, speed}.
  async run(models, settings) {
    const mine = ++this.#job;
    const live = () => mine === this.#job;
    const host = this.#host;
    this.#settings = settings;
    const bad = SIDES.find((s) => !models[s]);
    if (bad) {
      host.showError(host.strings().badModel);
      return;
    }
    // Two matrices side by side must share a target language (model-a="en-fr" model-b="en-zh"
    // is refused, as compare.html refuses it), and en-zh has no second model to compare with.
    const refused = refusePair(models.a, models.b);
    if (refused) {
      const P = PAIR_STRINGS[host.lang?.() ?? 'en'];
      host.showError(refused.kind === 'mixed' ? P.compareMixed(refused.a, refused.b) : P.compareSame(refused.a));
      return;
    }
    if (SIDES.some((s) => this.#models[s]?.url !== models[s].url)) {
      this.#host.setState('loading');
      this.#showProgress(null);
      const loaded = {};
      try {
        await Promise.all(SIDES.map(async (s) => {
          try {
            const translator = await host.load(models[s].url, (p) => live() && this.#showProgress(s, p));
            loaded[s] = { ...models[s], translator };
          } catch (error) {
            throw { side: s, error }; // Promise.all keeps only the first: name its model
          }
        }));
      } catch (e) {
        if (!live()) return;
        const side = SIDES.includes(e?.side) ? e.side : 'a';
        host.showError(host.modelError(e?.side ? e.error : e, models[side]));
        this.#models = { a: null, b: null };
        return;
      }
      if (!live()) return;
      this.#models = loaded;
      for (const s of SIDES) this.view.setModel(s, { info: loaded[s].translator.info(), label: loaded[s].label });
      this.#host.setState('ready');
      const info = Object.fromEntries(SIDES.map((s) => [s, loaded[s].translator.info()]));
      this.#host.dispatch('ready', { info, engine: loaded.a.translator.engine });
    }
    this.#renderStatus();
    await this.#translate(settings, live);
  }

  async #translate({ text, step, autoplay, speed }, live) {
    const host = this.#host;
    const view = this.view;
    const tr = Object.fromEntries(SIDES.map((s) => [s, this.#models[s].translator]));
    view.player.setSpeed(speed);
    view.reset({ play: autoplay && step === null });
    host.hideError(); // a new sentence: the previous one's error no longer applies
    if (!text.trim()) {
      for (const s of SIDES) view.finish(s);
      this.#host.setState('done');
      return;
    }
    this.#host.setState('decoding');
    const sessions = {};
    const its = {};
    const results = {};
    try {
      for (const s of SIDES) {
        sessions[s] = new DecodeSession(tr[s], text);
        its[s] = sessions[s][Symbol.asyncIterator]();
        view.setColumns(s, sessions[s].sourceTokens);
      }
      const running = new Set(SIDES);
      while (running.size) {
        const sides = [...running];
        const next = await Promise.all(sides.map((s) => its[s].next()));
        if (!live()) {
          await Promise.all(sides.map((s) => sessions[s].close())); // frees the C++ decoders now
          return;
        }
        sides.forEach((s, k) => {
          if (!next[k].done) {
            view.push(s, next[k].value);
            return;
          }
          running.delete(s);
          results[s] = sessions[s].result;
          view.setResult(s, results[s]);
          view.finish(s);
        });
      }
      // Timed once decoding is over, on this sentence, with each model's own kernels. Each
      // measurement blocks the host page for some tens of ms: let it paint between the two.
      for (const s of this.#analyse ? SIDES : []) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!live()) return;
        const info = tr[s].info();
        const transformer = info.arch === 'transformer';
        // A Transformer the engine cannot time: "n/a" with the engine's reason, as on the page.
        let scoringCost = null;
        let scoringCostError = null;
        try {
          scoringCost = tr[s].scoringCost(text);
        } catch (e) {
          if (!transformer) throw e;
          scoringCostError = e.message;
        }
        view.setAnalysis(s, {
          scoringCost,
          scoringCostError,
          selfAttention: transformer || info.scoring === 'scaled_dot' ? tr[s].selfAttention(text) : null,
        });
      }
      if (this.#analyse) view.analysisDone();
    } catch (err) {
      if (!live()) return;
      for (const s of SIDES) await sessions[s]?.close();
      if (this.#analyse) {
        for (const s of SIDES) view.analysisFailed(s);
        view.analysisDone();
      }
      host.showError(host.explain(err));
      return;
    }
    this.#host.setState('done');
    this.applyStep(this.#settings); // the latest: step or autoplay may have changed while decoding
    this.#host.dispatch('done', { text: { a: results.a.text, b: results.b.text }, result: results });
  }

  // Where playback rests once decoded: word `step`, else the end (autoplay plays to it).
  // Remembered, so that a step set while decoding applies once decoding is over.
  applyStep(settings) {
    this.#settings = settings;
    const { step, autoplay } = settings;
    const p = this.view.player;
    if (!p.finished) return;
    if (step !== null) p.seek(step);
    else if (!autoplay) p.seek(p.steps.length - 1);
    else if (!p.playing && p.position < 0) p.play();
  }
}
