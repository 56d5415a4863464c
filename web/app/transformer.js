// index.html's Transformer parts, shown only when the loaded model is one (info().arch):
// the layer × head picker over the matrix (ui/head-picker.js), which decides the rows the
// matrix, the lines, the step panel and the exports show (ui/heads.js reads them from each
// step's cross), and the encoder's self-attention below (ui/encoder-attention.js), asked of
// the worker once a sentence is decoded. Its own module so app.js stays about the translator:
// app.js asks it for rows and tells it about loads, sentences and the language.
//
// URL parameters (app/params.js reads them): layer (from 1) and head (from 1, or avg).

import { EncoderAttention } from '../ui/encoder-attention.js';
import { HeadPicker } from '../ui/head-picker.js';
import { crossRow, isTransformer, ownRow, stepFor } from '../ui/heads.js';
import { TRANSFORMER_STRINGS } from '../ui/transformer-strings.js';

export class TransformerParts {
  #info = null;
  #picker;
  #encoder;
  #job = 0;
  #want; // {layer, head} from the link, used once the model's shape is known
  #lang = 'en';

  // onPick(): after the user picks another layer or head (the views redraw their rows).
  constructor(pickerRoot, encoderRoot, { lang = 'en', want = null, onPick }) {
    this.#want = want;
    this.#picker = new HeadPicker(pickerRoot, { kind: 'cross', onChange: () => onPick() });
    this.#encoder = new EncoderAttention(encoderRoot, { lang });
    this.setLang(lang);
  }

  get active() {
    return isTransformer(this.#info);
  }

  // The loaded model's info() (null while none is).
  setInfo(info) {
    this.#info = info;
    const on = isTransformer(info);
    this.#picker.setShape(on ? info.decLayers : 0, on ? info.heads : 0, this.#want);
    this.#encoder.clear();
  }

  // The selection as the permalink keeps it (null: not a Transformer, or the default).
  get linkSelection() {
    if (!this.active) return null;
    const sel = this.#picker.selection;
    return { layer: sel.layer + 1, head: sel.head === 'avg' ? 'avg' : sel.head + 1 };
  }

  // The export's caption line for a Transformer: which layer and head the matrix is (null for
  // an RNN, whose matrix is its only attention).
  get caption() {
    if (!this.active) return null;
    const sel = this.#picker.selection;
    return TRANSFORMER_STRINGS[this.#lang].widgetShows({ layer: sel.layer + 1, head: sel.head === 'avg' ? 'avg' : sel.head + 1 },
      this.#info.decLayers, this.#info.heads);
  }

  // The matrix row of a step for the picked layer and head (an RNN's: its own alpha).
  row(step) {
    return this.active ? crossRow(step, this.#picker.selection) : step.alpha;
  }

  // An edited step's own row (its softmax's, which the edit replaced) for the same pick.
  ownRow(step) {
    return ownRow(step, this.active ? this.#picker.selection : null);
  }

  // The step as the step panel shows it: e and alpha of the picked layer and head.
  panelStep(step) {
    return this.active && step ? stepFor(step, this.#picker.selection) : step;
  }

  // The word on show: the picker's grid draws its every layer and head.
  preview(step) {
    if (this.active) this.#picker.preview(step);
  }

  // Beam search replays the winner's summary rows only: the picker cannot apply.
  setBeam(beam) {
    this.#picker.setDisabled(this.active && beam > 1 ? TRANSFORMER_STRINGS[this.#lang].beamNote : null);
  }

  // A new sentence: the encoder panel waits for it.
  reset() {
    this.#job++;
    this.#encoder.clear();
  }

  // The decoded sentence's encoder self-attention, from the worker (client.selfAttention).
  async showEncoder(client, text) {
    if (!this.active) return;
    const mine = ++this.#job;
    this.#encoder.clear({ pending: true });
    try {
      const self = await client.selfAttention(text);
      if (mine === this.#job) this.#encoder.setData(self);
    } catch (e) {
      if (mine === this.#job && e.name !== 'AbortError') this.#encoder.failed(e.message);
    }
  }

  setLang(lang) {
    this.#lang = lang;
    this.#picker.setStrings(TRANSFORMER_STRINGS[lang]);
    this.#encoder.setLang(lang);
  }
}
