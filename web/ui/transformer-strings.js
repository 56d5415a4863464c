// The engine's reasons a Transformer's scoring is not timed (scoringCost()'s error, from
// src/core/translator.cpp), in Chinese; another reason is shown as the engine wrote it.
const ZH_REASONS = {
  "scoring_cost times an RNN's scoring network: this Transformer's attention is several layers of heads, which one timing of one score function would not describe":
    '引擎只为 RNN 的打分网络计时：这个 Transformer 的注意力由多层、多个头组成，一个打分函数的一次计时无法描述它',
};

// The Transformer views' words (ui/head-picker.js, ui/encoder-attention.js, the Transformer's
// facts on the comparison view and its status lines), in English and simplified Chinese.
// Numbers are passed in: the model's own sizes from info(), nothing computed here.

const en = {
  kindName: 'Transformer',
  modelPick: 'Model',
  sidePick: (side) => `Model ${side.toUpperCase()}`,
  // The lineage's kinds, by ui/transformer-strings.js's kindOf (model menus, lineage strip).
  kinds: { none: 'no attention', additive: 'additive attention', scaled_dot: 'scaled dot-product attention', transformer: 'Transformer' },
  // A model menu's kind for a model trained with an aligner's hint (catalogue.js GUIDED_MODELS).
  guidedKind: (kind) => `${kind}, with an aligner’s hint`,
  // info(): {encLayers, decLayers, heads, dModel}
  kindLine: (i) => `Transformer: ${i.encLayers} encoder and ${i.decLayers} decoder layers, ${i.heads} heads, d_model ${i.dModel}`,
  pickCross: 'Cross-attention shown',
  pickEncoder: 'Encoder self-attention shown',
  decoderLayer: 'Decoder layer',
  encoderLayer: 'Encoder layer',
  head: 'Head',
  layerOption: (i, n) => (i === n ? `${i} (last)` : String(i)),
  headOption: (k) => `head ${k}`,
  average: (n) => `average of the ${n} heads`,
  crossNote: ({ layer, head }, L, H) => head === 'avg'
    ? `Decoder layer ${layer} of ${L}, the mean of its ${H} heads’ weights${layer === L ? ': the row the translator’s summary shows, and the one the other pages compare' : ''}. Each row still sums to 1.`
    : `Decoder layer ${layer} of ${L}, head ${head} of ${H}: that head’s own weights, as the engine computed them. Each head has its own queries and keys, so heads can look at different words. Each row sums to 1.`,
  gridLabel: 'Every layer and head at this word: pick one',
  gridStrip: (layer, head) => `Decoder layer ${layer}, ${head === 'avg' ? 'average of heads' : `head ${head}`}`,
  gridHead: (k) => `head ${k}`,
  gridAverage: 'average',
  gridLayer: (l) => `layer ${l}`,
  beamNote: 'Beam search reports only the summary row (the last decoder layer, averaged over heads): set the beam width to 1 to pick a layer and a head.',
  encTitle: 'Encoder self-attention: part of this translator',
  encNote: (L, H) =>
    `Before the decoder writes a word, the Transformer’s encoder lets every English token attend to every token of the same sentence, in each of its ${L} layers and ${H} heads. These are the engine’s own weights on this sentence: rows are queries, columns keys, and each row sums to 1. Queries and keys come from separate learned projections (W_q and W_k).`,
  encLabel: (layer, head) => `Encoder self-attention, layer ${layer}, ${head === 'avg' ? 'average of heads' : `head ${head}`}`,
  encDescription: (n) =>
    `Encoder self-attention weights: ${n} rows and ${n} columns, one per English token of the sentence plus the end marker. Rows are queries, columns keys; each row sums to 1. Use the arrow keys to move between cells.`,
  encCaption: 'Encoder self-attention weights (rows: queries; columns: keys; both English tokens)',
  encCorner: 'query \\ key',
  encPending: 'Computing the encoder’s self-attention…',
  encFailed: (why) => `The encoder’s self-attention could not be computed: ${why}`,
  // the comparison view's facts for a Transformer side
  formula: 'eᵢⱼ = qᵢ · kⱼ / √d_k, in each head of each decoder layer',
  dims: (i) => `d_model = ${i.dModel}, ${i.heads} heads × d_k = ${i.dModel / i.heads}, ${i.encLayers} encoder + ${i.decLayers} decoder layers, feed-forward ${i.ffn}`,
  dimsKey: 'qᵢ: the decoder’s query for word i; kⱼ: the key of English token j (each head projects its own).',
  allParams: 'Parameters in the whole model',
  costNA: (why) => `n/a: ${why}`,
  costNAReason: 'the engine does not time a Transformer’s scoring',
  // compare.html with a Transformer on a side: the title and tagline (data-i18n keys)
  comparePage: {
    title: 'An RNN with attention beside the Transformer',
    tagline: 'One sentence, two translators. The Transformer (Vaswani et al. 2017) keeps the scaled dot product, drops the recurrent networks, and attends in several layers and heads: its matrix shows the layer and head picked above it, or their average. Both matrices fill in together, word by word.',
  },
  compareExplain: [
    'The RNN translator reads the English with a bidirectional RNN into one annotation hⱼ per word, and its decoder writes the French one word at a time: for each word it scores every hⱼ against its state, turns the scores into weights with a softmax and mixes the annotations. One attention per word, one row of its matrix.',
    'The Transformer (Vaswani et al., 2017) has no recurrence. Its encoder lets every English token attend to every other, in several layers (self-attention, drawn below). Its decoder, for each French word, attends to the English in every one of its layers, with several heads, each scoring with its own scaled dot product qᵢ · kⱼ / √d_k. So it has not one matrix but one per layer and head: pick one above its matrix, or a layer’s average; the default, the last layer averaged over heads, is the row the other pages compare.',
    'Low entropy means a sharp alignment (one word gets the weight); high entropy means the weight is spread. The row marked ◆ is where the two part most, compared on the rows on show: for the Transformer, those of the layer and head picked.',
  ],
  modelMissing: (label) =>
    `${label} is not available here: its file is not on this server yet. The other models still work.`,
  // the widget's layer and head attributes (widget/heads.js)
  headsIgnored: 'The layer and head attributes apply to a Transformer model (model="en-fr-transformer"); this model has one attention per word, so they are ignored.',
  badLayer: (v, L) => `layer=${v} is ignored: it must be a decoder layer from 1 to ${L}. Showing layer ${L}.`,
  badHead: (v, H) => `head=${v} is ignored: it must be a head from 1 to ${H}, or avg. Showing the average of the heads.`,
  widgetShows: ({ layer, head }, L, H) => `Cross-attention: decoder layer ${layer} of ${L}, ${head === 'avg' ? `average of ${H} heads` : `head ${head} of ${H}`}.`,
};

const zh = {
  kindName: 'Transformer',
  modelPick: '模型',
  sidePick: (side) => `模型 ${side.toUpperCase()}`,
  kinds: { none: '无注意力', additive: '加性注意力', scaled_dot: '缩放点积注意力', transformer: 'Transformer' },
  guidedKind: (kind) => `${kind}，借助对齐器的提示`,
  kindLine: (i) => `Transformer：编码器 ${i.encLayers} 层、解码器 ${i.decLayers} 层，${i.heads} 个头，d_model ${i.dModel}`,
  pickCross: '显示的交叉注意力',
  pickEncoder: '显示的编码器自注意力',
  decoderLayer: '解码器层',
  encoderLayer: '编码器层',
  head: '头',
  layerOption: (i, n) => (i === n ? `${i}（最后一层）` : String(i)),
  headOption: (k) => `第 ${k} 个头`,
  average: (n) => `${n} 个头的平均`,
  crossNote: ({ layer, head }, L, H) => head === 'avg'
    ? `解码器第 ${layer} 层（共 ${L} 层），${H} 个头的权重取平均${layer === L ? '：这正是翻译器的概括行，也是其他页面比较的那一行' : ''}。每行之和仍为 1。`
    : `解码器第 ${layer} 层（共 ${L} 层）的第 ${head} 个头（共 ${H} 个）：这个头自己的权重，由引擎算出。每个头有自己的查询和键，所以不同的头可以看向不同的词。每行之和为 1。`,
  gridLabel: '这个词在每一层、每个头上的注意力：点选其一',
  gridStrip: (layer, head) => `解码器第 ${layer} 层，${head === 'avg' ? '各头平均' : `第 ${head} 个头`}`,
  gridHead: (k) => `头 ${k}`,
  gridAverage: '平均',
  gridLayer: (l) => `第 ${l} 层`,
  beamNote: '束搜索只给出概括行（解码器最后一层、各头平均）：把束宽设为 1，即可选择层和头。',
  encTitle: '编码器自注意力：这个翻译器的一部分',
  encNote: (L, H) =>
    `在解码器写出任何词之前，Transformer 的编码器让每个英文词关注同一句中的每个词，${L} 层中的每一层、${H} 个头中的每一个头都是如此。这些是引擎在这个句子上算出的权重：行是查询，列是键，每行之和为 1。查询和键来自各自学习的投影（W_q 与 W_k）。`,
  encLabel: (layer, head) => `编码器自注意力：第 ${layer} 层，${head === 'avg' ? '各头平均' : `第 ${head} 个头`}`,
  encDescription: (n) => `编码器自注意力权重：共 ${n} 行 ${n} 列，每个对应句中的一个英文词，最后是句末标记。行是查询，列是键；每行之和为 1。可用方向键在单元格之间移动。`,
  encCaption: '编码器自注意力权重（行：查询；列：键；均为英文词）',
  encCorner: '查询 \\ 键',
  encPending: '正在计算编码器的自注意力…',
  encFailed: (why) => `无法计算编码器的自注意力：${why}`,
  formula: 'eᵢⱼ = qᵢ · kⱼ / √d_k，在每个解码器层的每个头中',
  dims: (i) => `d_model = ${i.dModel}，${i.heads} 个头 × d_k = ${i.dModel / i.heads}，编码器 ${i.encLayers} 层 + 解码器 ${i.decLayers} 层，前馈层 ${i.ffn}`,
  dimsKey: 'qᵢ：解码器为第 i 个词生成的查询；kⱼ：第 j 个英文词的键（每个头各自投影）。',
  allParams: '整个模型的参数量',
  costNA: (why) => `不适用：${ZH_REASONS[why] ?? why}`,
  costNAReason: '引擎不为 Transformer 的打分计时',
  comparePage: {
    title: '带注意力的 RNN 与 Transformer 并排对比',
    tagline: '同一个句子，两个翻译器。Transformer（Vaswani 等，2017）保留缩放点积，去掉循环网络，并在多层、多个头中计算注意力：它的矩阵显示上方所选的层和头，或各头的平均。两个矩阵同步地逐词填充。',
  },
  compareExplain: [
    'RNN 翻译器用双向 RNN 把英文句子读成每个词一个表示 hⱼ，解码器再逐词写出法语：每写一个词，都用它的状态给每个 hⱼ 打分，经 softmax 变成权重，再把各个表示加权混合。每个词只有一组注意力，即矩阵中的一行。',
    'Transformer（Vaswani 等，2017）没有循环结构。它的编码器让每个英文词关注其他所有英文词，共有多层（自注意力，见下图）。它的解码器为每个法语词在每一层中关注英文，每层有多个头，每个头用自己的缩放点积 qᵢ · kⱼ / √d_k 打分。所以它不是只有一个矩阵，而是每层每个头各有一个：在它的矩阵上方选择一个，或选择某一层的平均；默认的最后一层各头平均，正是其他页面比较的那一行。',
    '熵低表示对齐很集中（权重落在一个词上）；熵高表示权重分散。标有 ◆ 的一行是两者分歧最大的地方，按当前显示的各行比较：对 Transformer 而言，是所选的层和头的那些行。',
  ],
  modelMissing: (label) => `${label} 在这里不可用：服务器上还没有它的文件。其他模型照常可用。`,
  headsIgnored: 'layer 和 head 属性只适用于 Transformer 模型（model="en-fr-transformer"）；这个模型每个词只有一组注意力，所以忽略它们。',
  badLayer: (v, L) => `已忽略 layer=${v}：它必须是 1 到 ${L} 之间的解码器层。显示第 ${L} 层。`,
  badHead: (v, H) => `已忽略 head=${v}：它必须是 1 到 ${H} 之间的头，或 avg。显示各头的平均。`,
  widgetShows: ({ layer, head }, L, H) => `交叉注意力：解码器第 ${layer} 层（共 ${L} 层），${head === 'avg' ? `${H} 个头的平均` : `第 ${head} 个头（共 ${H} 个）`}。`,
};

export const TRANSFORMER_STRINGS = { en, zh };

// The model's kind in a status line: the Transformer's shape, or the RNN's scoring kind.
export function modelKind(S, T, info) {
  return info?.arch === 'transformer' ? T.kindLine(info) : S.scoringKind(info?.scoring);
}

// The kind a view keys its words and colours on: 'transformer', or the RNN's scoring.
export const kindOf = (info) => (info?.arch === 'transformer' ? 'transformer' : info?.scoring);

// A model that failed to load because its file is not on the server (a 404 from web/lib's
// download): the pages say "not available" instead of showing the download error alone.
export const isMissingModel = (error) => /cannot download model .*HTTP 404/.test(String(error?.message ?? error));
