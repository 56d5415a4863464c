// The comparison view's words, in English and simplified Chinese (the page's and the widget's
// own words stay in strings.js). Numbers are passed in; nothing here computes one.
// Formulas keep the paper's notation in both languages.

import { STRINGS } from './strings.js';

const num = (n) => Number(n).toLocaleString('en-US');

// The engine's description of the illustration's queries and keys (SelfAttention.method, from
// src/core/self_attention.cpp), in Chinese; another description is shown as the engine wrote it.
const ZH_METHODS = {
  "Queries and keys are both this model's key projection of the annotations: q_i = W_k h_i and k_j = W_k h_j (W_q reads decoder states, not annotations; a Transformer learns a separate W_q for this).":
    '查询向量和键向量都是这个模型对注释向量的键投影：q_i = W_k h_i，k_j = W_k h_j（W_q 读的是解码器状态，不是注释向量；Transformer 为此另外学习一个 W_q）。',
};

const en = {
  title: 'Additive vs scaled dot-product attention',
  tagline:
    'One sentence, two translators that differ only in how they score the source words. Both matrices fill in together, word by word.',
  back: 'Back to the translator',
  compareLink: 'Compare additive and dot-product attention',
  inputLabel: 'English sentence',
  inputHint: 'Press Enter to compare.',
  compare: 'Compare',
  loadingModels: 'Downloading the two models…',
  errorModelParam: 'The a= or b= parameter is not a known model name nor a same-origin path; using the default model.',
  kind: { additive: 'Additive (Bahdanau 2014)', scaled_dot: 'Scaled dot product', none: 'No attention', transformer: 'Transformer (Vaswani 2017)' },
  who: { additive: 'the additive model', scaled_dot: 'the dot-product model', none: 'the model without attention', transformer: 'the Transformer' },
  matrixLabel: (kind) => `Attention matrix, ${kind}`,
  outputLabel: 'Translation',
  formula: 'Score',
  dims: 'Sizes',
  dimsKey: (A, D, H2) => `A = ${A} (attention size), D = ${D} (decoder state), 2H = ${H2} (an encoder annotation, both directions)`,
  params: 'Parameters in the scoring function',
  paramsSum: (terms) => `= ${terms}`,
  cost: 'Time spent scoring, per decoder step',
  costSpread: (c) => c.batches > 1
    ? `${usRange(c.stepUsMin, c.stepUsMax)}, from the fastest to the slowest of the ${c.batches} batches`
    : 'one batch timed (the time bound came first): no spread to show',
  costNote: (c, variant, query) =>
    `Measured on this sentence, ${variant}: the median of ${c.batches} timed ${c.batches === 1 ? 'batch' : 'batches'} (${num(c.callsPerBatch)} steps each) ` +
    `of the query from ${query} and the ${c.n} scores eᵢⱼ (the scores alone, timed the same way: ${usSpread(c.scoreUs, c.scoreUsMin, c.scoreUsMax)}). ` +
    `Not included: the keys for all ${c.n} positions, ${us(c.keysUs)} once per sentence at encoding. ` +
    'These times move with the machine’s load (other tabs and programs, the browser still compiling the engine): a reload can measure the same sentence 2–4× faster or slower, so compare the two models within one page load.',
  costPending: 'measuring…',
  costNone: 'measured on each sentence you compare',
  costFailed: 'not measured: the engine refused this sentence',
  entropy: 'Mean attention entropy',
  entropyValue: (bits, rows) => `${bits.toFixed(2)} bits over ${rows} ${rows === 1 ? 'row' : 'rows'}`,
  entropyScale: (n, max) =>
    `0 = all weight on one word; log₂ ${n} = ${max.toFixed(2)} = spread evenly over the ${n} columns.`,
  entropyNone: 'no rows yet',
  // info().attentionGuidance 'ibm1-diag': sharper by training, and the reader comparing
  // entropies should know it.
  entropyGuided: 'This model’s attention was also trained towards a statistical word aligner’s links (IBM Model 1 on the same training pairs, no human labels), which makes its rows sharper than attention learns alone.',
  tvTitle: 'Where they differ most:',
  tv: (row, a, b, tv) =>
    `Row ${row + 1} (marked ◆): ${a.who} writes “${a.word}”, looking most at “${a.peak}”; ` +
    `${b.who} writes “${b.word}”, looking most at “${b.peak}”. ` +
    `Of the rows where the two look most at different words, this one’s weights differ most: ` +
    `total variation TV = ½ Σⱼ |αᵢⱼ − βᵢⱼ| = ${tv.toFixed(3)} (0: the same weights, 1: no overlap).`,
  // Both look most at the same word here, and in every row so far: the spread is what differs.
  tvSpread: (row, a, b, gap, tv) =>
    `Row ${row + 1} (marked ◆): ${a.who} writes “${a.word}” and ${b.who} “${b.word}”, both looking most at “${a.peak}”, ` +
    `as the two do in every row so far. What differs is how they spread the weight: ${a.atPeak} against ${b.atPeak} on “${a.peak}”` +
    `${gap === null ? '' : `, and the largest gap is on “${gap}”: ${a.atGap} against ${b.atGap}`}. ` +
    `Total variation TV = ½ Σⱼ |αᵢⱼ − βᵢⱼ| = ${tv.toFixed(3)} (0: the same weights, 1: no overlap), the largest of any row so far.`,
  tvNone: 'Step forward: the two matrices are compared row by row once both have a row.',
  tvColumns: 'The two models split this sentence into different columns, so their rows cannot be compared.',
  position: (i, n) => `step ${i} of ${n}`,
  sideWords: (label, n, done) => `${label}: ${n} ${n === 1 ? 'word' : 'words'}${done ? ', finished' : ''}`,
  explainTitle: 'What you are seeing',
  explain: [
    'Both translators have the same encoder and decoder: a bidirectional RNN reads the English sentence into one annotation hⱼ per word, and the decoder writes French one word at a time. At each step it scores every hⱼ against its previous state sᵢ₋₁, turns the scores into weights with a softmax (one row of the matrix, summing to 1), and mixes the annotations with those weights into the context it reads the next word from.',
    'Only the score differs. The additive score of Bahdanau et al. (2014) runs a small network for every source word: project both vectors, add, tanh, then weigh with v. The scaled dot product projects the state into a query and each annotation into a key and takes their dot product, divided by √A so that scores do not grow with the vector size.',
    'Low entropy means a sharp alignment (one word gets the weight); high entropy means the weight is spread. The row marked ◆ is where the two models part most: of the rows where they look most at different words, the one whose weights differ most; while they look most at the same word in every row, the row whose weights differ most, and the callout says how they spread them.',
    'The bridge to the Transformer (Vaswani et al., 2017): keep the scaled dot product, drop the recurrent decoder, and apply the same score → softmax → mix by a sequence to itself. Every word then attends to every word of its own sentence: self-attention.',
  ],
  // compare.html's ready-made pairs (app/compare-presets.js).
  presetsLabel: 'Side by side',
  presets: { kinds: 'Additive vs scaled dot', guidance: 'Learned by itself vs with an aligner’s hint' },
  // Two RNNs with the same score whose attention learned differently (ui/compare-story.js): the
  // page's title and tagline, and what you are seeing.
  guidancePage: {
    title: 'Attention learned by itself vs with an aligner’s hint',
    tagline: 'One sentence, two translators with the same kind of score. One learned where to look from translating alone; the other was also pulled, in training, towards the English words a statistical aligner links to each French word. Both matrices fill in together, word by word.',
  },
  explainGuidance: [
    'Both translators work the same way: a bidirectional RNN reads the English sentence into one annotation hⱼ per word, and for each French word the decoder scores every hⱼ with the same kind of score (its formula is under each matrix), turns the scores into weights with a softmax (one row of the matrix, summing to 1) and mixes the annotations with them. What differs is how their attention learned (their sizes are under each matrix).',
    'The one that learned by itself was trained by translation alone: its training only rewarded the right French words. Nobody told it which English word a French word corresponds to, so whatever alignment its matrix shows, it found because it helped it translate. Such a model often puts weight on ⟨/s⟩, whose annotation sums up the sentence.',
    'The one with an aligner’s hint was also pulled, in training, towards the links of a simple statistical aligner (IBM Model 1, run on the same training pairs, no human labels). Its rows are sharper, as the note under its entropy says; at translation time it computes in exactly the same way.',
    'Low entropy means a sharp alignment (one word gets the weight); high entropy means the weight is spread. The row marked ◆ is where the two part most. A sharper matrix does not by itself make a better translation: compare the two translations as well as the two matrices.',
  ],
  selfTitle: 'Self-attention, illustrated: the step between the two',
  selfNote:
    'An illustration of the mechanism, not part of the translator: the translator only attends from French words to English ones. Here one sentence attends to itself, each English token a query scoring every token of the same sentence; each row sums to 1. It is the step between RNN attention and the Transformer, whose encoder computes the real thing: put en-fr-transformer on one side to see it.',
  selfMethod: 'How the queries and keys are formed, in the engine’s words:',
  selfMethodText: (method) => method,
  selfDiagonal:
    'Read the diagonal with care: here the queries and the keys are the same vectors (qᵢ = kᵢ = W_k hᵢ), so a token’s score with itself is qᵢ · qᵢ = ‖W_k hᵢ‖², never negative and as a rule the largest in its row. The bright diagonal is large by construction; it says nothing about the sentence. A Transformer learns a separate W_q, and its tokens get no such head start.',
  selfNone: 'Self-attention needs a scaled-dot model; neither model here is one.',
  selfFailed: 'Not computed: the engine refused this sentence.',
  selfLabel: 'Self-attention matrix (illustration)',
  selfDescription: (n) =>
    `Self-attention weights: ${n} rows and ${n} columns, one per English token of the sentence plus the end marker. Each row sums to 1. Use the arrow keys to move between cells.`,
  selfCaption: 'Self-attention weights (rows: queries; columns: keys; both English tokens)',
  selfCorner: 'query \\ key',
  // compare.html's footer (its first authors are strings.js's footAuthors)
  footVaswani: '(2014); Vaswani et al.,',
  footVaswaniYear: '(2017).',
  footNote:
    'Every number drawn here is the models’ own, computed in this page by WebAssembly; entropy and total variation are computed from their weights.',
};

const zh = {
  title: '加性注意力与缩放点积注意力的对比',
  tagline: '同一个句子，两个只在“如何给源词打分”上不同的翻译器。两个矩阵同步地逐词填充。',
  back: '返回翻译器',
  compareLink: '对比加性注意力与点积注意力',
  inputLabel: '英文句子',
  inputHint: '按 Enter 开始对比。',
  compare: '对比',
  loadingModels: '正在下载两个模型…',
  errorModelParam: 'a= 或 b= 参数既不是已知的模型名，也不是同源路径；已改用默认模型。',
  kind: { additive: '加性注意力（Bahdanau 2014）', scaled_dot: '缩放点积注意力', none: '无注意力', transformer: 'Transformer（Vaswani 2017）' },
  who: { additive: '加性模型', scaled_dot: '点积模型', none: '无注意力模型', transformer: 'Transformer' },
  matrixLabel: (kind) => `注意力矩阵：${kind}`,
  outputLabel: '译文',
  formula: '打分函数',
  dims: '尺寸',
  dimsKey: (A, D, H2) => `A = ${A}（注意力维度），D = ${D}（解码器状态），2H = ${H2}（编码器双向表示）`,
  params: '打分函数的参数量',
  paramsSum: (terms) => `= ${terms}`,
  cost: '每个解码步用于打分的时间',
  costSpread: (c) => c.batches > 1
    ? `${c.batches} 批中从最快到最慢：${usRange(c.stepUsMin, c.stepUsMax)}`
    : '只计时了 1 批（时间上限先到），没有范围可显示',
  costNote: (c, variant, query) =>
    `在这个句子上实测，引擎 ${STRINGS.zh.variantName(variant)}：计时 ${c.batches} 批（每批 ${num(c.callsPerBatch)} 步）取中位数，` +
    `每步包括由 ${query} 得到查询向量，以及 ${c.n} 个分数 eᵢⱼ（仅分数，同样计时：${usSpread(c.scoreUs, c.scoreUsMin, c.scoreUsMax)}）。` +
    `不包括：${c.n} 个位置的键向量，在编码时每句只算一次，${us(c.keysUs)}。` +
    '这些时间随机器的负载而变（其他标签页和程序、浏览器仍在编译引擎）：刷新后同一个句子可能快或慢 2–4 倍，所以请在同一次页面加载中比较两个模型。',
  costPending: '测量中…',
  costNone: '在每个对比的句子上测量',
  costFailed: '未测量：引擎拒绝了这个句子',
  entropy: '平均注意力熵',
  entropyValue: (bits, rows) => `${bits.toFixed(2)} 比特（共 ${rows} 行）`,
  entropyScale: (n, max) => `0 = 全部权重落在一个词上；log₂ ${n} = ${max.toFixed(2)} = 均匀分布在 ${n} 列上。`,
  entropyNone: '尚无行',
  entropyGuided: '这个模型的注意力在训练时还被拉向一个统计词对齐器给出的连接（IBM 模型 1，在同样的训练句对上运行，没有人工标注），所以它的行比注意力单独学到的更集中。',
  tvTitle: '差别最大的一行：',
  tv: (row, a, b, tv) =>
    `第 ${row + 1} 行（标有 ◆）：${a.who}输出“${a.word}”，最关注“${a.peak}”；` +
    `${b.who}输出“${b.word}”，最关注“${b.peak}”。` +
    `在两个模型最关注的词不同的各行中，这一行的权重差别最大：` +
    `总变差 TV = ½ Σⱼ |αᵢⱼ − βᵢⱼ| = ${tv.toFixed(3)}（0：权重相同；1：完全不重叠）。`,
  tvSpread: (row, a, b, gap, tv) =>
    `第 ${row + 1} 行（标有 ◆）：${a.who}输出“${a.word}”，${b.who}输出“${b.word}”，两者都最关注“${a.peak}”；` +
    `到目前为止的每一行，两者最关注的词都相同。不同的是权重的分布：“${a.peak}”上分别是 ${a.atPeak} 和 ${b.atPeak}` +
    `${gap === null ? '' : `，差别最大的是“${gap}”：${a.atGap} 和 ${b.atGap}`}。` +
    `总变差 TV = ½ Σⱼ |αᵢⱼ − βᵢⱼ| = ${tv.toFixed(3)}（0：权重相同；1：完全不重叠），是目前各行中最大的。`,
  tvNone: '向前播放：两个模型都有某一行之后，才能逐行比较。',
  tvColumns: '两个模型对这个句子的分词不同，列不一致，无法逐行比较。',
  position: (i, n) => `第 ${i} 步，共 ${n} 步`,
  sideWords: (label, n, done) => `${label}：${n} 个词${done ? '，已完成' : ''}`,
  explainTitle: '你看到的是什么',
  explain: [
    '两个翻译器的编码器和解码器完全相同：双向 RNN 把英文句子读成每个词一个表示 hⱼ，解码器再逐词写出法语。每一步，解码器用上一步的状态 sᵢ₋₁ 给每个 hⱼ 打分，经 softmax 变成权重（矩阵中的一行，和为 1），再按这些权重把各个表示加权混合成上下文向量，用来生成下一个词。',
    '唯一的区别是打分函数。Bahdanau 等人（2014）的加性打分对每个源词运行一个小网络：分别投影两个向量、相加、取 tanh，再用 v 加权求和。缩放点积则把解码器状态投影成查询向量（query），把每个表示投影成键向量（key），取二者的点积并除以 √A，使分数不随向量维度增大而变大。',
    '熵低表示对齐很集中（权重落在一个词上）；熵高表示权重分散。标有 ◆ 的一行是两个模型分歧最大的地方：在两者最关注的词不同的各行中，权重差别最大的一行；如果每一行两者最关注的词都相同，就是权重差别最大的一行，说明文字会指出两者的权重分布有何不同。',
    '通往 Transformer（Vaswani 等，2017）的桥梁：保留缩放点积，去掉循环解码器，把同样的“打分 → softmax → 加权混合”用在一个序列自身上。于是句子中的每个词都关注同一句中的每个词：这就是自注意力。',
  ],
  presetsLabel: '并排对比',
  presets: { kinds: '加性与缩放点积', guidance: '自己学会的与借助对齐器提示的' },
  guidancePage: {
    title: '自己学会的注意力与借助对齐器提示的注意力',
    tagline: '同一个句子，两个打分方式相同的翻译器。一个只靠翻译学会往哪里看；另一个在训练时还被拉向统计对齐器为每个法语词连上的英文词。两个矩阵同步地逐词填充。',
  },
  explainGuidance: [
    '两个翻译器的工作方式相同：双向 RNN 把英文句子读成每个词一个表示 hⱼ；对每个法语词，解码器用同一种打分函数（公式见各矩阵下方）给每个 hⱼ 打分，经 softmax 变成权重（矩阵中的一行，和为 1），再按这些权重把各个表示加权混合。不同的是它们的注意力是怎样学到的（两者的尺寸见各矩阵下方）。',
    '自己学会的那个只靠翻译训练：训练只奖励正确的法语词。没有人告诉它哪个英文词对应哪个法语词，所以它的矩阵里无论出现怎样的对齐，都是它因为对翻译有用而自己找到的。这样的模型常常把权重放在 ⟨/s⟩ 上：那里的表示是整句的概括。',
    '借助对齐器提示的那个在训练时还被拉向一个简单的统计对齐器给出的连接（IBM 模型 1，在同样的训练句对上运行，没有人工标注）。它的行更集中，它的熵下方的说明也这样说；翻译时的计算方式完全相同。',
    '熵低表示对齐很集中（权重落在一个词上）；熵高表示权重分散。标有 ◆ 的一行是两个模型分歧最大的地方。更集中的矩阵本身并不意味着更好的译文：请同时比较两个译文和两个矩阵。',
  ],
  selfTitle: '自注意力示意：两者之间的一步',
  selfNote:
    '这只是机制的示意，不是翻译器的一部分：翻译器只会从法语词关注英文词。这里让一个句子关注它自身：每个英文词作为查询，给同一句中的每个词打分；每行之和为 1。它是 RNN 注意力与 Transformer 之间的一步；Transformer 的编码器计算的才是真正的自注意力：把 en-fr-transformer 放在一侧即可看到。',
  selfMethod: '查询向量和键向量的来历（引擎的说明）：',
  selfMethodText: (method) => ZH_METHODS[method] ?? method,
  selfDiagonal:
    '看对角线时要小心：这里的查询向量和键向量是同一组向量（qᵢ = kᵢ = W_k hᵢ），所以一个词与它自己的分数是 qᵢ · qᵢ = ‖W_k hᵢ‖²，从不为负，通常是所在行中最大的。明亮的对角线是由这种构造决定的，与句子本身无关。Transformer 会另外学习一个 W_q，它的词不会这样天然占先。',
  selfNone: '自注意力需要缩放点积模型；这里的两个模型都不是。',
  selfFailed: '未计算：引擎拒绝了这个句子。',
  selfLabel: '自注意力矩阵（示意）',
  selfDescription: (n) => `自注意力权重：共 ${n} 行 ${n} 列，每个对应句中的一个英文词，最后是句末标记。每行之和为 1。可用方向键在单元格之间移动。`,
  selfCaption: '自注意力权重（行：查询；列：键；均为英文词）',
  selfCorner: '查询 \\ 键',
  footVaswani: '（2014）；Vaswani 等，',
  footVaswaniYear: '（2017）。',
  footNote: '这里画出的每个数字都是两个模型自己的，由本页中的 WebAssembly 计算；熵和总变差由它们的权重算出。',
};

// Microseconds to three significant digits (two below 1 µs, where the tiny test models live),
// never in exponent notation.
export function us(x) {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '0 µs';
  const digits = x >= 100 ? 0 : x >= 10 ? 1 : x >= 1 ? 2 : Math.min(6, 1 - Math.floor(Math.log10(x)));
  return `${x.toFixed(digits)} µs`;
}

// A spread of microseconds, lo–hi with one unit ("15.1–42.6 µs"); one value when they agree.
export function usRange(lo, hi) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return '—';
  const [a, b] = [us(lo), us(hi)];
  return a === b ? a : `${a.replace(/ µs$/, '')}–${b}`;
}

// A median with its spread in brackets ("3.63 µs (3.40–4.12 µs)"), or alone when the spread
// rounds to one value (one batch timed).
export function usSpread(median, lo, hi) {
  const range = usRange(lo, hi);
  return range === us(median) || range === '—' ? us(median) : `${us(median)} (${range})`;
}

export { num };

export const COMPARE_STRINGS = { en, zh };
