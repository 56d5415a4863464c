// Types of bahdanau-live's JavaScript API (web/lib/bahdanau.js), for TypeScript users of the npm
// package. Every object is plain data copied out of the wasm heap: keep it as long as you like.
// tests/node/package.test.mjs checks this file against a typed use of the API with tsc.

/** The largest beam translate() accepts. */
export const MAX_BEAM: 16;
/** The largest maxLen any method accepts. */
export const MAX_LEN: 1024;
/** The most texts translateBatch() accepts in one call. */
export const MAX_BATCH: 1024;
/** The most attention edits one call accepts (bl::kMaxEdits). */
export const MAX_EDITS: 1024;
/**
 * The longest text, in characters (code points), that translate(), translateBatch() (each
 * text), steps() and align() (each side) take: longer text is refused (an Error, or that text's
 * {error} in translateBatch(); a RangeError for translate() with splitSentences), so that one
 * call blocks for seconds, not minutes. splitSentences() takes any length.
 */
export const MAX_TEXT_CHARS: 2000;
/** The largest model file, download or byte array createTranslator() accepts: 256 MiB. */
export const MAX_MODEL_BYTES: 268435456;

/** Whether this JavaScript engine runs wasm SIMD (the faster engine variant). */
export function simdSupported(): boolean;

export interface CreateOptions {
  /**
   * A model name, resolved against the package itself (never the working directory or the
   * page): 'en-fr' (the default, when left out), 'en-fr-dot' and 'en-fr-noattn' are in the npm
   * package; the others only on a site or in a clone. Or a URL (browser, worker), a file path
   * (Node) or the model file's bytes.
   */
  model?: ModelName | (string & {}) | URL | ArrayBuffer | ArrayBufferView | null;
  /** 'auto' picks wasm-simd where supported; true requires it; false forces wasm-scalar. */
  simd?: 'auto' | boolean;
  /** An int8 model's products through relaxed SIMD where the engine runs it ('auto'), required
   * (true; an error where it does not, or with simd:false) or never (false). The results are
   * the same; only the speed differs. */
  relaxed?: 'auto' | boolean;
  /** Follows the model download (URLs only); total is null when the size is not known. */
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
  /** Where bahdanau-{simd,scalar}.{js,wasm} and bahdanau-relaxed.wasm live (web/dist by default). */
  dist?: string | URL;
}

/** The models known by name (web/lib/catalogue.js). */
export type ModelName = 'en-fr' | 'en-fr-dot' | 'en-fr-noattn' | 'en-fr-f32' | 'en-fr-transformer'
  | 'en-fr-transformer-f32' | 'tiny' | 'tiny-int8' | 'tiny-dot' | 'tiny-none' | 'tiny-transformer';

/** Loads the engine and the model (the packaged en-fr when none is given). Rejects with an
 * Error that says what was wrong. */
export function createTranslator(options?: CreateOptions | null): Promise<Translator>;

export interface ModelInfo {
  srcLang: 'en' | 'fr' | 'zh';
  tgtLang: 'en' | 'fr' | 'zh';
  /** 'none': no attention (one fixed context vector; attention rows are empty). */
  scoring: 'additive' | 'scaled_dot' | 'none';
  /** Where attention's query comes from: s_{i-1} ('paper'), s'_i ('cgru'), or a Transformer's
   * decoder layers ('transformer'). */
  decoder: 'paper' | 'cgru' | 'transformer';
  /** 'ibm1-diag': the attention was also trained towards an unsupervised word aligner's links
   * (IBM Model 1 with a diagonal prior, on the same training pairs); 'none': by the translation
   * loss alone. The computation is the same. */
  attentionGuidance: 'none' | 'ibm1-diag';
  dtype: 'f32' | 'int8' | 'q4';
  /** 'wasm-relaxed', 'wasm-simd' or 'scalar': the kernel table computing this model. */
  kernels: string;
  emb: number;
  encHidden: number;
  decHidden: number;
  /** Attention width A; 0 for a model without attention. */
  attn: number;
  srcVocab: number;
  tgtVocab: number;
  maxSrcLen: number;
  maxTgtLen: number;
  numParams: number;
  fileBytes: number;
  /** What computes the scores: W, U (and v) for an RNN; a Transformer's decoder layers' cross-attention W_q, W_k and biases. */
  scoringParams: number;
  /** 'rnn': the Bahdanau encoder-decoder; 'transformer': layers of multi-head attention. */
  arch: 'rnn' | 'transformer';
  /** Transformer only (0 for an RNN, whose encHidden, decHidden and attn are 0 for a Transformer). */
  encLayers: number;
  decLayers: number;
  heads: number;
  dModel: number;
  ffn: number;
  /** The engine variant running this model. */
  engine: 'wasm-simd' | 'wasm-scalar';
}

export interface Hypothesis {
  tokens: string[];
  /** Total log-probability. */
  score: number;
  /** score / length (</s> counted). */
  norm: number;
  /** false when it hit the length limit. */
  finished: boolean;
}

export interface Translation {
  /** The attention columns: source tokens, then '</s>'. */
  sourceTokens: string[];
  sourceIds: number[];
  /** The rows: output tokens ('</s>' excluded, <unk> replaced by a source word). */
  targetTokens: string[];
  targetIds: number[];
  /** [rows][columns] weights; each row sums to 1. Rows are empty for a model without attention. */
  attention: number[][];
  /** p of each output token (greedy only; empty for beam search). */
  probs: number[];
  text: string;
  /** Stopped at the length limit, not at '</s>'. */
  truncated: boolean;
  /** Beam search: the finished hypotheses, best first (empty for greedy). */
  hypotheses: Hypothesis[];
  /** With edits: the rows decoded under given attention, ascending (empty without edits). */
  edited: number[];
  /** Parallel to edited: the row the model's own softmax computed there (attention[edited[k]]
   * is the given one). */
  ownAttention: number[][];
  timings: { encodeMs: number; decodeMs: number };
}

export interface Step {
  /** Output position i, from 0. */
  index: number;
  token: number;
  /** The token's text, <unk> replaced; '</s>' at the end. */
  word: string;
  prob: number;
  /** Raw scores e_ij, one per column (empty without attention). */
  e: number[];
  /** Weights alpha_ij, one per column (empty without attention). */
  alpha: number[];
  /** The context c_i (2H values); a Transformer's final decoder state z_i (dModel values). */
  c: number[];
  /** |c|, computed in JS (web/lib/native.js) from c: the square root of the sum of squares,
   * summed in double in order. */
  cNorm: number;
  topIds: number[];
  topWords: string[];
  topLogProbs: number[];
  /** exp(topLogProbs[k]), computed in JS (web/lib/native.js) as the float the engine's expf
   * gives, bit for bit. */
  topProbs: number[];
  /** This step emitted '</s>' or reached the length limit. */
  done: boolean;
  /** Decoded under given attention (an AttentionEdit): alpha is the given row, from which c,
   * the next-word distribution and the word follow; e stays the model's own scores. */
  edited: boolean;
  /** An edited step: what the model's own softmax gave (its summary row for a Transformer);
   * null for a step that was not edited. */
  ownAlpha: number[] | null;
  /** A Transformer's cross-attention, every decoder layer and head (null for an RNN). e and
   * alpha above are its summary row: the last layer's mean over heads. */
  cross: CrossAttention | null;
}

export interface CrossAttention {
  /** alpha.length and alpha[0].length, set in JS (web/lib/native.js). */
  layers: number;
  heads: number;
  /** [layer][head][column] weights; each row sums to 1. */
  alpha: number[][][];
  /** [layer][head][column] scaled scores q . k_j / sqrt(d_k). */
  e: number[][][];
  /** An edited step: every layer's and head's own weights [layer][head][column], beside alpha
   * (which holds the given ones); null for a step that was not edited. */
  ownAlpha: number[][][] | null;
}

export interface StepIterator extends AsyncIterableIterator<Step> {
  /** The attention columns, known before the first step. */
  readonly sourceTokens: string[];
  /** translate()'s result, once the last step is out; null before, or if returned early. */
  readonly result: Translation | null;
}

export interface Alignment {
  sourceTokens: string[];
  /** The given target's tokens, then '</s>': one row each. */
  targetTokens: string[];
  targetIds: number[];
  /** One per row; token, word and prob are the given word's. */
  steps: Step[];
  logProb: number;
  /** Rows whose word is outside the target vocabulary. */
  unknown: number;
}

export interface ScoringCost {
  n: number;
  /** Medians over the timed batches, in µs per call. */
  stepUs: number;
  scoreUs: number;
  keysUs: number;
  /** The fastest and the slowest batch of each timing (the spread; it moves with the machine's load). */
  stepUsMin: number;
  stepUsMax: number;
  scoreUsMin: number;
  scoreUsMax: number;
  keysUsMin: number;
  keysUsMax: number;
  /** Batches timed for stepUs: as many as asked, or fewer if the time bound came first. */
  batches: number;
  callsPerBatch: number;
}

/** An RNN scaled_dot model's illustration: one n x n matrix. */
export interface SelfAttention {
  tokens: string[];
  scores: number[][];
  weights: number[][];
  method: string;
}

/** A Transformer's real encoder self-attention: [layer][head][n][n]. */
export interface LayeredSelfAttention {
  tokens: string[];
  layers: number;
  heads: number;
  scores: number[][][][];
  weights: number[][][][];
  method: string;
}

/**
 * Attention given to one decoder step instead of the model's own softmax: "what if it had
 * looked there?" The step's context c_i is mixed from these weights, and its next-word
 * distribution, top-k and word follow from that c_i; the steps after decode with the model's
 * own attention from the state it left (unless hold). Give weights or column. The core refuses,
 * with an Error, weights of the wrong length, not finite, negative or all 0, a column, layer or
 * head out of range, and a step the translation does not reach (translate(), align()); JS
 * refuses wrong types (TypeError) and non-integers (RangeError).
 */
export interface AttentionEdit {
  /** The output position i (the row), from 0. */
  step: number;
  /** One weight per column (source tokens, then '</s>'): finite, >= 0, not all 0; scaled to sum 1. */
  weights?: number[] | Float32Array | Float64Array;
  /** Instead of weights: all the weight on this column (0 .. columns - 1). Default -1: none. */
  column?: number;
  /** Transformer only: the decoder layer (from 0) whose cross-attention is edited; -1 (the
   * default): every layer. An RNN has one attention: leave it out. */
  layer?: number;
  /** Transformer only: the head (from 0); -1 (the default): every head. */
  head?: number;
  /** Transformer only: switch the head(s) off (their output zeroed; no weights). */
  ablate?: boolean;
  /** Apply the same edit at every later step too. */
  hold?: boolean;
}

export interface TranslateOptions {
  /** 1 (greedy) to MAX_BEAM. */
  beam?: number;
  /** Cap on output tokens, 1 to MAX_LEN. */
  maxLen?: number;
  /** Translate each sentence on its own (see ParagraphTranslation); takes no edits. */
  splitSentences?: boolean;
  /** Steps decoded under given attention (greedy only: a beam > 1 is a RangeError); at most
   * MAX_EDITS. */
  edits?: AttentionEdit[];
}

/** translate(text, {splitSentences: true}): one result per sentence, as typed. */
export interface ParagraphTranslation {
  /** The sentences' translations joined with spaces. */
  text: string;
  sentences: Array<Translation & { source: string }>;
}

export interface TranslateBatchOptions {
  /** 1 (greedy, decoded as a batch) to MAX_BEAM (beam search, one text at a time). */
  beam?: number;
  /** Cap on output tokens, 1 to MAX_LEN. */
  maxLen?: number;
  /** The same edits for every text (each then decodes on its own); greedy only. */
  edits?: AttentionEdit[];
}

/**
 * One entry of translateBatch(), for the text at the same index: translate()'s result for it,
 * or, where translate() would throw (invalid text, too many tokens), the message. Tell them
 * apart with `'error' in entry`.
 */
export type TranslateBatchResult = Translation | { error: string };

export interface StepsOptions {
  /** Candidates reported per step, 1 to the target vocabulary's size. */
  topK?: number;
  maxLen?: number;
  /** Steps decoded under given attention; an edit at a step never reached does not apply. */
  edits?: AttentionEdit[];
}

export interface AlignOptions {
  /** The model's own candidates reported per row. */
  topK?: number;
  /** Rows decoded under given attention: an edited row's prob is the given word's under it. */
  edits?: AttentionEdit[];
}

export interface Memory {
  heapBytes: number;
  emvalHandles: number;
  liveObjects: number;
}

export interface Translator {
  /** Which engine runs, why, and its one-off costs. */
  readonly engine: {
    variant: 'wasm-simd' | 'wasm-scalar';
    reason: string;
    /** The kernel table: 'wasm-relaxed' where the relaxed int8 products run. */
    kernels: 'wasm-relaxed' | 'wasm-simd' | 'scalar';
    /** Why the relaxed int8 products run or do not. */
    relaxed: string;
    instantiateMs: number;
    loadMs: number;
  };
  translate(text: string, options?: (TranslateOptions & { splitSentences?: false }) | null): Translation;
  translate(text: string, options: TranslateOptions & { splitSentences: true }): ParagraphTranslation;
  /**
   * translate() for each text, greedy ones decoded together (each weight read once per step
   * for the whole batch); results equal translate()'s. One entry per text, in order: a bad
   * text gives `{error}`, it does not throw. Throws only for bad arguments: texts not an array
   * of strings (TypeError), more than MAX_BATCH texts, a bad beam or maxLen (RangeError).
   */
  translateBatch(texts: string[], options?: TranslateBatchOptions | null): TranslateBatchResult[];
  /** text's sentences, each as typed: how splitSentences cuts a paragraph. */
  splitSentences(text: string): string[];
  /** Greedy decoding one word at a time, yielding to the event loop between steps. */
  steps(text: string, options?: StepsOptions | null): StepIterator;
  /** Forced decoding of a given target translation. */
  align(source: string, target: string, options?: AlignOptions | null): Alignment;
  /**
   * Times attention's scoring on this sentence (throws for a model without attention). Blocks
   * for at most 4 * (batches + 1) * minBatchMs ms.
   */
  scoringCost(text: string, options?: { minBatchMs?: number; batches?: number } | null): ScoringCost;
  /** Scaled-dot models only: the source attending to itself. */
  selfAttention(text: string): SelfAttention | LayeredSelfAttention;
  /** The model's tokens: the source's, or the target language's (BLEU's tokens). */
  tokenize(text: string, options?: { side?: 'source' | 'target' } | null): string[];
  /** A translation's attention matrix as text, the native CLI's picture. */
  heatmap(translation: Pick<Translation, 'sourceTokens' | 'targetTokens' | 'attention'>): string;
  info(): ModelInfo;
  memory(): Memory;
  /** Frees the C++ side; idempotent. Later calls throw. */
  dispose(): void;
}

/** createTrainer's options (web/lib/trainer.js): a fresh model trained from a data file. */
export interface TrainerOptions {
  /** The training data file (docs/training-core.md; scripts/train-data writes it): bytes, a URL, or a file path in Node. */
  data: Uint8Array | ArrayBuffer | string | URL;
  /** The model's sizes and kinds; each optional. The vocabularies come from the data. */
  config?: {
    decoder?: 'paper' | 'cgru';
    scoring?: 'additive' | 'scaled_dot' | 'none';
    emb?: number; enc_hidden?: number; dec_hidden?: number; attn?: number;
    max_src_len?: number; max_tgt_len?: number;
  } | null;
  /** Adam's learning rate (default 5e-3), the gradient-norm clip (1; 0: off). */
  lr?: number; clip?: number;
  /** lr's inverse-square-root decay: step t uses lr * min(1, sqrt(lrDecaySteps / t)) (default 1000; 0 keeps lr constant). At most 1e9. */
  lrDecaySteps?: number;
  /** Pairs per step, 1..4096 (default 32). */
  batchSize?: number;
  /** An integer in 0..2^53: the weights, the dropout masks and the batches' order (default 1). */
  seed?: number;
  /** In [0, 1), both 0 by default. */
  dropout?: number; labelSmoothing?: number;
  /** The decay of the weights' moving average, in [0, 1) (default 0.998; 0: none): after step t, a = d a + (1 - d) w with d = min(average, (1 + t) / (10 + t)). evaluate() and snapshot() read it unless given {weights: 'latest'}. */
  average?: number;
  simd?: 'auto' | boolean;
  /** Every product with relaxed SIMD's fused multiply-add (bahdanau-relaxed-gemm.wasm) where the
   * JS engine runs it fused ('auto', the default), required (true; an error where it does not,
   * or with simd:false) or never (false). Faster; the losses differ from false's by rounding and
   * are the same bits on every engine that runs it. */
  relaxed?: 'auto' | boolean;
  dist?: string | URL;
}

/** Which weights a trainer reads: their moving average (the default; the latest weights when average is 0) or the latest step's. */
export interface TrainerWeightsOptions {
  weights?: 'average' | 'latest';
}

export interface TrainStepReport {
  /** Each step's loss: the mean over its target tokens of -log p. */
  losses: number[];
  /** Adam updates made so far, and passes over the training pairs completed. */
  steps: number; epochs: number;
}

/** The variant and why; the kernel table of its products; why the fused product runs or not. */
export interface TrainerEngine {
  variant: 'wasm-simd' | 'wasm-scalar'; reason: string;
  kernels: 'wasm-relaxed' | 'wasm-simd' | 'scalar'; relaxed: string;
}

export interface Trainer {
  readonly engine: TrainerEngine;
  /** n (1..10,000) steps on the next n batches; runs on the calling thread (use a worker in a page). */
  step(n?: number): TrainStepReport;
  /** The held-out pairs' mean loss (no dropout, no smoothing), or null without held-out pairs. */
  evaluate(options?: TrainerWeightsOptions): number | null;
  /** The weights (averaged unless told otherwise) as an f32 model file, which createTranslator({model}) reads. */
  snapshot(options?: TrainerWeightsOptions): Uint8Array;
  /** Frees the C++ side; idempotent. Later calls throw. */
  dispose(): void;
}

/** A fresh Bahdanau model trained by backpropagation in this thread (issue 25). */
export function createTrainer(options: TrainerOptions): Promise<Trainer>;

/** startTraining's model sizes: 'small' (the default) and 'tiny' (for phones). */
export const TRAIN_PRESETS: {
  readonly small: { readonly emb: 64; readonly enc_hidden: 128; readonly dec_hidden: 128; readonly attn: 128 };
  readonly tiny: { readonly emb: 32; readonly enc_hidden: 64; readonly dec_hidden: 64; readonly attn: 32 };
};
/** The bundled training data (web/data/train-en-fr.bin: 2,000 + 3,000 words, Tatoeba, CC-BY 2.0 FR). */
export const TRAIN_DATA_URL: URL;
/** The bundled gold alignments inside its vocabularies (web/data/train-en-fr-gold.json; a test set). */
export const TRAIN_GOLD_URL: URL;

/** One gold pair: links are [english token index, french token index] into the model's tokens. */
export interface GoldPair {
  en: string;
  fr: string;
  sure: Array<[number, number]>;
  /** Possible links (the sure ones may be repeated here). */
  possible?: Array<[number, number]>;
  /** The tokens the links index, checked against the model's tokenizer when given. */
  enTokens?: string[];
  frTokens?: string[];
}

/** startTraining's options: createTrainer's, and the run's. */
export interface TrainingOptions extends Partial<TrainerOptions> {
  /** Default: the bundled TRAIN_DATA_URL. */
  data?: Uint8Array | ArrayBuffer | string | URL;
  /** 'small' (default: emb 64, hidden 128, attn 128) or 'tiny' (32, 64, 32); config overrides it. */
  preset?: keyof typeof TRAIN_PRESETS;
  /** config.scoring's shorthand. */
  scoring?: 'additive' | 'scaled_dot' | 'none';
  /** Gold alignments for the measures: true (TRAIN_GOLD_URL), a URL or path of such a JSON file, or the pairs. Default none. */
  gold?: boolean | string | URL | GoldPair[] | { pairs: GoldPair[] };
  /** Sentences whose attention each measure reports: forced through target if given, else greedy. */
  watch?: Array<{ source: string; target?: string | null }>;
  /** Progress events at most this often, in ms (default 500). */
  reportMs?: number;
  /** A measure every this much training time, in ms (default 3000; 0: only measureNow()). */
  measureMs?: number;
  /** Stop (state 'stopped') after this much training time or this many steps. */
  maxSeconds?: number;
  maxSteps?: number;
  /** Where train-worker.js is, for a bundler that moves it (default: beside training.js). */
  worker?: string | URL;
}

export type TrainingState = 'loading' | 'training' | 'paused' | 'stopped' | 'error';

export interface TrainingStateEvent {
  state: TrainingState;
  /** Why it stopped or failed ('disposed', 'maxSteps (100) reached', the core's message...). */
  reason?: string;
}

export interface TrainingProgress {
  steps: number;
  epochs: number;
  /** Training time in seconds: pauses and measures left out. */
  seconds: number;
  /** Over the last chunks of steps. */
  stepsPerSecond: number;
  /** The mean of losses. */
  loss: number;
  /** Each step's loss since the last progress event. */
  losses: number[];
}

/** alignmentMeasure's result: shares in [0, 1], as scripts/nmt/alignment.py's percentages / 100. */
export interface AlignmentScore {
  /** Sure-linked French tokens whose attention argmax (</s> excluded) is a gold English token. */
  accuracy: number;
  /** The same on the tokens the plain diagonal misses. */
  offDiagonal: number;
  /** What the plain diagonal gets, with no model. */
  diagonal: number;
  /** Mean attention weight on the gold English tokens. */
  mass: number;
  /** Alignment error rate of the argmax links. */
  aer: number;
  entropyBits: number;
  /** Sure-linked French tokens counted, and those of them off the diagonal. */
  tokens: number;
  offDiagonalTokens: number;
  sentences: number;
}

export interface WatchedSentence {
  source: string;
  /** The forced target, or null for greedy decoding. */
  target: string | null;
  /** The columns: source tokens, then '</s>'. */
  sourceTokens: string[];
  /** The rows, '</s>' not included. */
  targetTokens: string[];
  attention: number[][];
  text: string;
}

export interface TrainingMeasure {
  steps: number;
  seconds: number;
  /** The held-out pairs' mean loss, or null without held-out pairs. */
  heldoutLoss: number | null;
  /** null without gold pairs. */
  alignment: AlignmentScore | null;
  watched: WatchedSentence[];
}

export interface TrainingRun {
  readonly state: TrainingState;
  /** null while a model loads; then the worker's trainer's engine. */
  readonly engine: TrainerEngine | null;
  /** Resolves once the first model has loaded; rejects with the reason it could not. */
  readonly ready: Promise<void>;
  on(type: 'state', fn: (event: TrainingStateEvent) => void): () => void;
  on(type: 'progress', fn: (event: TrainingProgress) => void): () => void;
  on(type: 'measure', fn: (event: TrainingMeasure) => void): () => void;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Fresh weights, with newOptions or the same ones; it stays paused if it was. */
  reset(newOptions?: TrainingOptions | null): Promise<void>;
  /** The averaged weights (`average`; the latest ones when it is 0) as an f32 model file, which createTranslator({model}) reads. */
  snapshot(): Promise<Uint8Array>;
  /** Greedy translation with the averaged weights. */
  translate(text: string): Promise<Translation>;
  /** Forced decoding through target with the averaged weights (fed word by word, as in training): align()'s result. */
  align(source: string, target: string): Promise<Alignment>;
  measureNow(): Promise<TrainingMeasure>;
  /** Ends the worker; later calls reject. */
  dispose(): void;
}

/** Trains a fresh model in a Web Worker (browser) or a worker_threads Worker (Node). Throws a
 * TypeError or RangeError for options of the wrong type or value; the rest arrives as events. */
export function startTraining(options?: TrainingOptions | null): TrainingRun;

/** Forced decoding's attention rows against gold links, scripts/nmt/alignment.py's measures. */
export function alignmentMeasure(items: Array<{
  rows: number[][];
  sourceLength: number;
  sure: Array<[number, number]>;
  possible?: Array<[number, number]>;
}>): AlignmentScore;
