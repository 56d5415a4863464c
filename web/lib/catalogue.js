// What the project ships and the bounds it keeps: the models by name, their labels, the pairs
// each page sets side by side, and the limits on a request. The page (app/), the widget
// (widget/) and the API (lib/) read it here, so none of them has to import another's module.
//
// Decision: it lives in lib/ because lib is the one layer all three already depend on and the
// only one in the npm package's files; it holds data only, no DOM and no engine.

// Paths are relative to web/ (the page and the widget resolve them against their own URL).
export const MODELS = {
  'en-fr': { url: 'models/en-fr.safetensors', label: 'en-fr' },
  'en-fr-f32': { url: 'models/en-fr-f32.safetensors', label: 'en-fr (f32)' },
  'en-fr-dot': { url: 'models/en-fr-dot.safetensors', label: 'en-fr (scaled dot)' },
  // en-fr and en-fr-dot learned their attention by translation alone; this additive model was
  // also pulled in training towards an aligner's links (info().attentionGuidance 'ibm1-diag'),
  // kept so that a student can set the two side by side (GUIDANCE_MODELS). Its label says so
  // wherever a label is shown (status lines, the comparison's headings).
  'en-fr-guided': { url: 'models/en-fr-guided.safetensors', label: 'en-fr-guided (aligner’s hint)' },
  'en-fr-noattn': { url: 'models/en-fr-noattn.safetensors', label: 'en-fr-noattn' },
  // English->Chinese (issue 28): the shipped RNN recipe with additive attention, on Tatoeba's
  // eng-cmn pairs; one token per ideograph (tokenizer spec 3, docs/tokenization.md).
  'en-zh': { url: 'models/en-zh.safetensors', label: 'en-zh' },
  // The lineage's last step: trained by scripts/train --arch transformer. Pages that name it
  // say "not available" while its file is not on the server.
  'en-fr-transformer': { url: 'models/en-fr-transformer.safetensors', label: 'en-fr-transformer' },
  'en-fr-transformer-f32': { url: 'models/en-fr-transformer-f32.safetensors', label: 'en-fr-transformer (f32)' },
  tiny: { url: 'fixtures/tiny-additive-f32.safetensors', label: 'tiny test model (random weights)' },
  'tiny-int8': { url: 'fixtures/tiny-additive-int8.safetensors', label: 'tiny test model, int8 (random weights)' },
  'tiny-dot': { url: 'fixtures/tiny-scaled_dot-f32.safetensors', label: 'tiny scaled-dot test model (random weights)' },
  'tiny-none': { url: 'fixtures/tiny-none-f32.safetensors', label: 'tiny no-attention test model (random weights)' },
  'tiny-transformer': { url: 'fixtures/tiny-transformer-f32.safetensors', label: 'tiny Transformer test model (random weights)' },
};
export const DEFAULT_MODEL = 'en-fr';
// The models the npm package carries (at web/models/, scripts/lib/prepack.mjs): the default, the
// two the widget's two-model modes need (compare, bottleneck), and the English->Chinese one, so
// that model="en-zh" works from a CDN as on the site. Others are on the site only.
export const PACKAGED_MODELS = ['en-fr', 'en-fr-dot', 'en-fr-noattn', 'en-zh'];
// Two models side by side: compare.html and mode="compare" (additive, scaled dot); why.html and
// mode="bottleneck" (without attention, with it).
export const COMPARE_MODELS = ['en-fr', 'en-fr-dot'];
export const WHY_MODELS = ['en-fr-noattn', 'en-fr'];
// compare.html's second ready-made pair (app/compare-presets.js): one additive model whose
// attention learned by itself beside one trained with an aligner's hint.
export const GUIDANCE_MODELS = ['en-fr', 'en-fr-guided'];
// The site's story, in order: no attention, additive, scaled dot, the Transformer (why.html's
// lineage strip; the model menus list PAIRS, below).
export const LINEAGE = ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-transformer'];
// The kind each of them stands for, before it is loaded (its info() says the same).
export const LINEAGE_KINDS = { 'en-fr-noattn': 'none', 'en-fr': 'additive', 'en-fr-dot': 'scaled_dot', 'en-fr-transformer': 'transformer' };
// The named models trained with an aligner's hint, so that the menus can say so before the
// model is loaded (its info().attentionGuidance says the same).
export const GUIDED_MODELS = ['en-fr-guided'];

// The language pairs the pages offer (app/model-menu.js's pair choice): each one's target
// language (the captions name it: ui/target-strings.js), its models in menu order and the one a
// pick opens. English->Chinese has one model so far, so the comparison page, whose two models
// must share a target language, cannot offer it (compare.js says so). English->French's menu is
// the story (LINEAGE) with the guided additive model after the two attention RNNs: a menu entry,
// not a step of the story, so LINEAGE (why.html's strip) leaves it out.
export const PAIRS = {
  'en-fr': { target: 'fr', models: ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-guided', 'en-fr-transformer'], open: DEFAULT_MODEL },
  'en-zh': { target: 'zh', models: ['en-zh'], open: 'en-zh' },
};
// Every named model's kind, for the menus' labels before a model is loaded.
export const MODEL_KINDS = { ...LINEAGE_KINDS, 'en-fr-guided': 'additive', 'en-zh': 'additive' };

// -> the pair ('en-fr', 'en-zh') a catalogue name belongs to, or null for a URL or a test
// model (whose target only its loaded info().tgtLang tells).
export function pairOf(name) {
  return Object.keys(PAIRS).find((p) => PAIRS[p].models.includes(name) || name === `${p}-f32` || name === `${p}-transformer-f32`) ?? null;
}

// -> null when models a and b ({name, label}) may stand side by side (compare.html, why.html,
// the widget's two-model modes), else {kind: 'mixed' (two target languages) | 'same' (a pair
// with one model), a, b: their labels}. A model by URL belongs to no known pair and is let
// through: only its loaded info could say its language.
export function refusePair(a, b) {
  const [pa, pb] = [pairOf(a.name), pairOf(b.name)];
  if (!pa || !pb) return null;
  if (pa !== pb) return { kind: 'mixed', a: a.label, b: b.label };
  return PAIRS[pa].models.length < 2 ? { kind: 'same', a: a.label, b: b.label } : null;
}

// The engine's bounds (lib refuses beyond them).
export const ENGINE_MAX_BEAM = 16; // bl::kMaxBeam
export const MAX_LEN = 1024; // the native CLI's --max-len bound
export const MAX_BATCH = 1024; // texts per translateBatch() call (bl::kMaxBatch, --batch N)
export const MAX_EDITS = 1024; // attention edits per call (bl::kMaxEdits)
// The figures' bounds, tighter than the engine's: the widest beam the page's menu and the
// widget's beam attribute offer, and the characters kept from a link or an attribute (the
// engine refuses long input anyway).
export const MAX_BEAM = 8;
export const MAX_TEXT = 2000;
