// Every word the page and its drawing modules show, in English and simplified Chinese.
// Drawing modules take the table they are given, so a widget can pass either (or its own).
// Formulas stay in the paper's notation in both languages.

const en = {
  // page
  title: 'See how attention works',
  tagline:
    'A small English→French translator in the style of Bahdanau, Cho & Bengio (2014), running in your browser. Watch which English word each French word looks at, as it is decoded.',
  inputLabel: 'English sentence',
  inputHint: 'Press Enter to translate, Shift+Enter for a new line.',
  translate: 'Translate',
  examples: 'Examples',
  options: 'Options',
  beam: 'Beam width',
  beamHint: '1 = greedy, word by word; more keeps several hypotheses',
  language: '中文',
  languageLabel: 'Captions in Chinese',
  whyLink: 'Why attention? A translator without it, side by side',
  loadingModel: 'Downloading the model…',
  loadingEngine: 'Starting the engine…',
  timeLeft: (s) => `about ${s} s left`,
  translateWaiting: 'Translate (model loading)',
  translateWaitingTitle: 'The model is still downloading: a sentence sent now is translated as soon as it is in.',
  queuedForModel: (text) => `Will translate when the model is in: “${text}”`,
  // result
  translation: 'Translation',
  source: 'Source',
  playback: 'Playback',
  play: 'Play',
  pause: 'Pause',
  back: 'Previous word (←)',
  forward: 'Next word (→)',
  first: 'First word',
  last: 'Last word',
  speed: 'Speed',
  speedValues: ['1 word/s', '2 words/s', '4 words/s', '10 words/s', 'instant'],
  position: (i, n) => `word ${i} of ${n}`,
  positionEnd: (n) => `end of sentence (${n} ${n === 1 ? 'word' : 'words'})`,
  decoding: 'decoding…',
  views: 'View',
  viewMatrix: 'Matrix',
  viewLines: 'Alignment lines',
  exportSvg: 'SVG',
  exportPng: 'PNG',
  exportLabel: 'Download the matrix',
  permalink: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'Copy this link:',
  legend: 'attention weight',
  hypotheses: 'Beam hypotheses',
  hypScore: 'log-prob',
  hypNorm: 'per word',
  hypUnfinished: 'cut at the length limit',
  // a paragraph: text longer than the model reads, translated sentence by sentence
  sentenceTabs: 'Sentences',
  sentenceTab: (k, n) => `Sentence ${k} of ${n}`,
  paragraphNote: (tokens, max, n) =>
    `This text is ${tokens} tokens long and the model reads at most ${max} at once, so it is translated as ${n} sentences, one at a time. Pick a sentence to see its matrix.`,
  paragraphSplitNote: (n) =>
    `This text has ${n} sentences, each translated on its own, one at a time. Pick a sentence to see its matrix, or tick “as one sequence” above to see attention over the whole text.`,
  wholeLabel: 'Several sentences as one sequence',
  wholeHint: 'Off: each sentence is translated on its own, with a tab each. On: the whole text at once, to see attention over a long input.',
  paragraphTranslation: 'Whole translation',
  sentenceFailed: (k) => `[sentence ${k} could not be translated]`,
  // forced decoding ("Or type your own French")
  forceLabel: 'Or type your own French',
  forceSubmit: 'Align',
  forceHint:
    'The model reads your translation word by word instead of choosing its own: see where it looks for each of your words, and how likely it found each one.',
  forceBack: 'Back to the model’s translation',
  forceSummary: (n, unknown, logp) =>
    `Your French, ${n} ${n === 1 ? 'word' : 'words'}, read by the model: log-probability ${logp}` +
    (unknown ? `; ${unknown} of them ${unknown === 1 ? 'is' : 'are'} not in its vocabulary and read as ⟨unk⟩.` : '.'),
  forceNeedSentence: 'Translate an English sentence first: your French is aligned to it.',
  forceEmpty: 'Type a French translation to align.',
  errorForce: 'Your French could not be aligned.',
  forcedStep: (p, own) =>
    `You wrote this word; the model gave it a probability of ${p}. Its own first choice here was “${own}”.`,
  forcedEnd: (p) => `Your translation ends here; the model gave the end of the sentence a probability of ${p}.`,
  forcedUnk: (word) => `“${word}” is not in the model’s vocabulary: the model reads it as ⟨unk⟩, and the probability is that of ⟨unk⟩.`,
  yourWord: 'your word',
  // matrix
  matrixLabel: 'Attention matrix',
  matrixDescription: (rows, cols) =>
    `Attention weights: ${rows} rows, one per French output word, and ${cols} columns, one per English source token plus the end-of-sentence marker. Each row sums to 1. Colour runs from dark purple (0) to yellow (1). Use the arrow keys to move between cells.`,
  matrixEmpty: 'The matrix appears here as the sentence is translated.',
  // A finished translation with no word: the model's first choice was the end marker.
  emptyTranslation: 'No French: the model’s first choice was the end marker ⟨/s⟩, so the translation ended at once. The step panel shows that step.',
  tableCaption: 'Attention weights (rows: French words; columns: English tokens)',
  corner: 'French word \\ English token',
  weight: 'weight',
  // step panel
  stepHeading: (i, word) => `Step ${i}: “${word}”`,
  stepEnd: 'End of sentence',
  stepNone: 'Translate a sentence to see the four steps of attention for each word.',
  stepTitles: ['Score', 'Normalise', 'Mix', 'Generate'],
  captionScore: {
    additive:
      'How well does each English word fit what the decoder needs next? A small network compares the decoder’s previous state with every source position j: eⱼ = vᵀ tanh(W sᵢ₋₁ + U hⱼ). Raw scores, of any size and sign.',
    scaled_dot:
      'How well does each English word fit what the decoder needs next? A scaled dot product compares the decoder’s previous state with every source position j: eⱼ = (W sᵢ₋₁) · (U hⱼ) / √d. Raw scores, of any size and sign.',
  },
  captionWeights:
    'Softmax turns the scores into weights that are all positive and sum to 1: αⱼ = exp(eⱼ) / Σₖ exp(eₖ). These weights are the new row of the matrix.',
  // A model trained with scripts/train --guided-alignment (info().attentionGuidance 'ibm1-diag').
  captionWeightsGuided:
    'How this model learned them: besides translating, its training pulled each French word’s weights towards the English words that a simple statistical aligner (IBM Model 1, run on the same training pairs, no human labels) links it to. That makes the rows sharper than attention learns alone; the computation here is the same.',
  // Its counterpart for an RNN whose attention was trained by translation alone ('none').
  captionWeightsAlone:
    'How this model learned them: from translating alone. Nobody told it which English word a French word corresponds to; its training only rewarded the right French words, and these weights are what it found useful for writing them.',
  captionMix:
    'The context vector is the weighted average of the encoder’s annotations: cᵢ = Σⱼ αⱼ hⱼ. The bar shows each word’s share of the mix; the strip shows the numbers of cᵢ (purple negative, orange positive).',
  captionGenerate:
    'From cᵢ, the new decoder state and the previous word, the decoder gives every French word a probability. These are the five most likely; greedy decoding takes the first.',
  captionEnd:
    'The decoder chose ⟨/s⟩, end of sentence, so the translation stops here. This step’s attention is not a row of the matrix.',
  captionBeam:
    'Beam search keeps several hypotheses at once; the engine reports the winning hypothesis’ attention weights, but not its raw scores, context or candidates. Set the beam width to 1 to see all four steps.',
  captionUnk: (word) =>
    `The model chose ⟨unk⟩, a word outside its vocabulary; it is replaced by the source word with the largest weight: “${word}”.`,
  notEnglish: (unknown, words) =>
    `This model reads English: ${unknown} of ${words} ${words === 1 ? 'word is' : 'words are'} unknown to it, so the translation above is a guess.`,
  captionEosPeak:
    'Most of this word’s weight is on ⟨/s⟩, the end marker. The forward encoder has read the whole sentence when it gets there, so that annotation is a summary of it: a model trained on translation alone often looks there rather than at one word, most of all for the first French word.',
  captionUnkBanned: (word) =>
    `The model’s first choice was ⟨unk⟩, which would copy the English word “${word}” into the French. A lower-case English word is never right there, so the decoder takes its best real word instead.`,
  // Typos and rare words: the source tokens the model reads as ⟨unk⟩ (app/input-check.js).
  unknownWords: (words) =>
    `${words.length} ${words.length === 1 ? 'word is' : 'words are'} unknown to this model: ${words.join(', ')}. It reads ${words.length === 1 ? 'it' : 'each'} as ⟨unk⟩, so the translation may leave ${words.length === 1 ? 'it' : 'them'} out or go wrong.`,
  unknownToken: 'Not in this model’s vocabulary: read as ⟨unk⟩',
  // A model without attention (scoring 'none'): the step panel and the page say what is missing.
  captionNoAttention:
    'This model has no attention, so steps 1 to 3 (score, normalise, mix) do not exist for it: its encoder squeezes the whole sentence into one fixed vector c, and the decoder reads that same c for every French word. Only step 4, choosing the word, is its own.',
  noAttentionNote:
    'No attention matrix for this model: it has no weights to show or edit. Its decoder reads the one fixed vector c below for every word, which is why it loses its way on long sentences (see “Why attention?” at the top of the page).',
  forceHintNoAttention:
    'The model reads your translation word by word instead of choosing its own: see how likely it found each of your words.',
  captionUnkBannedMark: (word) =>
    `The model’s first choice was ⟨unk⟩, which would copy “${word}” into the French. That is a punctuation mark or symbol the model does not know, not a name or a number, so the decoder takes its best real word instead.`,
  // The conditional GRU (Sennrich et al. 2017): the query is s′ᵢ, the state after reading yᵢ₋₁.
  captionScoreCgru: {
    additive:
      'How well does each English word fit what the decoder needs next? A small network compares the decoder’s query state s′ᵢ with every source position j: eⱼ = vᵀ tanh(W s′ᵢ + U hⱼ). Here s′ᵢ is the state after reading the previous French word; the paper used sᵢ₋₁, the state before it, and this model follows later implementations (Sennrich et al. 2017), which align more sharply. Raw scores, of any size and sign.',
    scaled_dot:
      'How well does each English word fit what the decoder needs next? A scaled dot product compares the decoder’s query state s′ᵢ with every source position j: eⱼ = (W s′ᵢ) · (U hⱼ) / √d. Here s′ᵢ is the state after reading the previous French word; the paper used sᵢ₋₁, the state before it, and this model follows later implementations (Sennrich et al. 2017), which align more sharply. Raw scores, of any size and sign.',
  },
  // A Transformer (info().decoder 'transformer'): the panel shows the layer and head picked
  // over the matrix (the last layer averaged over heads unless another is picked).
  captionScoreTransformer:
    'How well does each English word fit what the decoder needs next? In the picked decoder layer, each head projects the decoder’s state for this word into a query qᵢ and each encoder output into a key kⱼ, and scores eⱼ = qᵢ · kⱼ / √d_k. Averaged over heads, these are the mean of the heads’ scores. Raw scores, of any size and sign.',
  captionWeightsTransformer:
    'Each head turns its scores into weights with a softmax: all positive, summing to 1. Averaged over heads, they are the mean of the heads’ weights (not the softmax of the mean scores). These weights are the row of the matrix.',
  captionMixTransformer:
    'A Transformer has no single context vector: every head of every decoder layer mixes its own value vectors with its own weights, and the heads’ mixes are joined and projected. The bar shows each word’s share in the picked weights; the strip shows zᵢ, the decoder’s final state for this word after all its layers, which the next word is chosen from (purple negative, orange positive).',
  contextNorm: 'length ‖c‖',
  contextNormTransformer: 'length ‖z‖',
  contextSize: (n) => `${n} numbers`,
  chosen: 'chosen',
  // attention edits (ui/matrix.js, ui/weight-editor.js; the rest in ui/edit-strings.js)
  editedBadge: 'edited',
  ownRow: 'own',
  ownRowLabel: (word) => `The model’s own row for “${word}”, which the edit replaced`,
  tipGiven: 'given',
  tipOwn: (w) => `the model’s own α = ${w}`,
  tipEdit: 'Click or press Enter: look here instead',
  cellGiven: (w, own) => `given weight ${w}; the model’s own ${own}`,
  matrixEditHelp: 'Press Enter on a cell to make that French word look at that English word instead.',
  captionWeightsEdit: 'To ask “what if it had looked elsewhere?”, pick an English word (all the weight goes on it) or drag a bar (the others scale so that the weights still sum to 1).',
  captionWeightsEdited: 'You gave these weights: the model’s softmax did not compute them. The thin mark on each bar is the model’s own weight. The mix and the next word below follow from your weights.',
  lookHere: (word) => `Look at “${word}” instead`,
  weightOn: (word) => `Weight on “${word}”`,
  ownMark: (w) => `own ${w}`,
  // status and errors
  engine: 'Engine',
  msPerWord: 'ms per word',
  // What the engine and the model report, in English (web/lib's variant names and the reasons
  // of its chooseVariant, the models' labels, info().scoring), as the status lines say it.
  engineUsed: (variant, reason) => `${variant} (${reason})`,
  variantName: (variant) => variant,
  modelLabel: (label) => label,
  scoringKind: (scoring) => ({ additive: 'additive attention', scaled_dot: 'scaled dot-product attention', none: 'no attention' })[scoring] ?? `${scoring} attention`,
  paramCount: (n) => `${n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : `${(n / 1e3).toFixed(1)} k`} params`,
  stepPanel: 'Step panel',
  link: 'Link',
  footAuthors: 'Bahdanau, Cho & Bengio,',
  footYear: '(2014).',
  footData: 'Trained on Tatoeba sentence pairs (CC-BY 2.0 FR, www.manythings.org/anki and tatoeba.org).',
  footNote: 'Every number drawn here is the model’s own, computed in this page by WebAssembly.',
  errorTitle: 'Something went wrong',
  errorModel: 'The model could not be loaded.',
  errorNoWasm: 'This browser cannot run WebAssembly, which the translator needs.',
  errorNoWorker: 'This browser cannot start a module Web Worker, which the translator needs.',
  errorTranslate: 'This sentence could not be translated.',
  errorModelParam: 'The model= parameter is not a known model name nor a same-origin path; using the default model.',
  errorKeep: 'Your text is still in the box.',
  retry: 'Try again',
};

// The reasons web/lib/loader.js's chooseVariant gives (and the pages' own for ?simd=0, and
// web/lib/relaxed.js's RELAXED_REASON).
const ZH_REASONS = {
  'SIMD supported': '浏览器支持 SIMD',
  'SIMD and relaxed SIMD supported': '浏览器支持 SIMD 与宽松 SIMD',
  'SIMD not supported by this browser': '此浏览器不支持 SIMD',
  'SIMD not supported by this Node.js': '此 Node.js 不支持 SIMD',
  'forced by simd:true': '由 simd:true 指定',
  'forced by simd:false': '由 simd:false 指定',
  'forced by ?simd=0': '由链接参数 ?simd=0 指定',
};

// The models' labels (web/lib/catalogue.js MODELS); names alone (en-fr) need no translation.
const ZH_MODEL_LABELS = {
  'en-fr (f32)': 'en-fr（f32）',
  'en-fr (scaled dot)': 'en-fr（缩放点积）',
  'en-fr-guided (aligner’s hint)': 'en-fr-guided（借助对齐器的提示）',
  'tiny test model (random weights)': '微型测试模型（随机权重）',
  'tiny test model, int8 (random weights)': '微型测试模型，int8（随机权重）',
  'tiny scaled-dot test model (random weights)': '微型缩放点积测试模型（随机权重）',
  'tiny no-attention test model (random weights)': '微型无注意力测试模型（随机权重）',
  'tiny Transformer test model (random weights)': '微型 Transformer 测试模型（随机权重）',
  'en-fr-transformer (f32)': 'en-fr-transformer（f32）',
};

const zh = {
  title: '看见注意力如何工作',
  tagline:
    '一个按照 Bahdanau、Cho 与 Bengio（2014）的方法构建的小型英法翻译器，直接在浏览器里运行。逐词观察：每个法语词在生成时，都在“注视”哪个英文词。',
  inputLabel: '英文句子',
  inputHint: '按 Enter 翻译，Shift+Enter 换行。',
  translate: '翻译',
  examples: '例句',
  options: '选项',
  beam: '束宽',
  beamHint: '1 为贪心解码，逐词生成；更大则同时保留多个候选',
  language: 'English',
  languageLabel: '用英文显示说明',
  whyLink: '为什么需要注意力？与没有注意力的翻译器并排对比',
  loadingModel: '正在下载模型…',
  loadingEngine: '正在启动引擎…',
  timeLeft: (s) => `约剩 ${s} 秒`,
  translateWaiting: '翻译（模型加载中）',
  translateWaitingTitle: '模型仍在下载：现在提交的句子会在模型下载完成后立即翻译。',
  queuedForModel: (text) => `模型下载完成后将翻译：“${text}”`,
  translation: '译文',
  source: '原文',
  playback: '播放',
  play: '播放',
  pause: '暂停',
  back: '上一个词（←）',
  forward: '下一个词（→）',
  first: '第一个词',
  last: '最后一个词',
  speed: '速度',
  speedValues: ['每秒 1 词', '每秒 2 词', '每秒 4 词', '每秒 10 词', '即时'],
  position: (i, n) => `第 ${i} 个词，共 ${n} 个`,
  positionEnd: (n) => `句子结束（共 ${n} 个词）`,
  decoding: '解码中…',
  views: '视图',
  viewMatrix: '矩阵',
  viewLines: '对齐连线',
  exportSvg: 'SVG',
  exportPng: 'PNG',
  exportLabel: '下载矩阵',
  permalink: '复制链接',
  copied: '链接已复制',
  copyFailed: '请复制此链接：',
  legend: '注意力权重',
  hypotheses: '束搜索候选译文',
  hypScore: '对数概率',
  hypNorm: '平均每词',
  hypUnfinished: '达到长度上限而截断',
  sentenceTabs: '句子',
  sentenceTab: (k, n) => `第 ${k} 句，共 ${n} 句`,
  paragraphNote: (tokens, max, n) =>
    `这段文字有 ${tokens} 个词元，而模型一次最多读 ${max} 个，所以把它分成 ${n} 个句子逐句翻译。选择一个句子即可查看它的矩阵。`,
  paragraphSplitNote: (n) =>
    `这段文字有 ${n} 个句子，每句单独翻译，逐句进行。选择一个句子即可查看它的矩阵；勾选上方的“当作一个序列”，可以看到注意力如何覆盖整段文字。`,
  wholeLabel: '多个句子当作一个序列',
  wholeHint: '不勾选：每个句子单独翻译，各有一个标签。勾选：整段文字一次翻译，可以看到注意力如何覆盖较长的输入。',
  paragraphTranslation: '全文译文',
  sentenceFailed: (k) => `［第 ${k} 句无法翻译］`,
  forceLabel: '或者输入你自己的法语译文',
  forceSubmit: '对齐',
  forceHint: '模型不再自行选词，而是逐词读入你的译文：看它为你的每个词注视哪里，以及它认为每个词有多大可能。',
  forceBack: '回到模型自己的译文',
  forceSummary: (n, unknown, logp) =>
    `模型读入了你的法语译文（${n} 个词）：对数概率 ${logp}` +
    (unknown ? `；其中 ${unknown} 个词不在模型词表中，按 ⟨unk⟩ 读入。` : '。'),
  forceNeedSentence: '请先翻译一个英文句子：你的法语译文会与它对齐。',
  forceEmpty: '请输入要对齐的法语译文。',
  errorForce: '你的法语译文无法对齐。',
  forcedStep: (p, own) => `这个词是你写的；模型给它的概率是 ${p}。模型在这一步自己的首选是“${own}”。`,
  forcedEnd: (p) => `你的译文到这里结束；模型给句子结束的概率是 ${p}。`,
  forcedUnk: (word) => `“${word}”不在模型的词表中：模型把它读作 ⟨unk⟩，这里的概率是 ⟨unk⟩ 的概率。`,
  yourWord: '你的词',
  matrixLabel: '注意力矩阵',
  matrixDescription: (rows, cols) =>
    `注意力权重：共 ${rows} 行，每行对应一个法语输出词；共 ${cols} 列，每列对应一个英文源词，最后一列是句末标记。每行之和为 1。颜色从深紫（0）渐变到黄色（1）。可用方向键在单元格之间移动。`,
  matrixEmpty: '翻译开始后，矩阵会在这里逐行出现。',
  emptyTranslation: '没有法语译文：模型的第一个选择就是句末标记 ⟨/s⟩，所以翻译立即结束。下方的步骤面板显示的就是这一步。',
  tableCaption: '注意力权重（行：法语词；列：英文词）',
  corner: '法语词 \\ 英文词',
  weight: '权重',
  stepHeading: (i, word) => `第 ${i} 步：“${word}”`,
  stepEnd: '句子结束',
  stepNone: '翻译一个句子，即可看到每个词的注意力计算四步。',
  stepTitles: ['打分', '归一化', '加权求和', '生成'],
  captionScore: {
    additive:
      '每个英文词与解码器下一步需要的信息有多匹配？一个小型神经网络把解码器上一步的状态与每个源位置 j 逐一比较：eⱼ = vᵀ tanh(W sᵢ₋₁ + U hⱼ)。这是原始分数，可大可小，也可以为负。',
    scaled_dot:
      '每个英文词与解码器下一步需要的信息有多匹配？用缩放点积把解码器上一步的状态与每个源位置 j 逐一比较：eⱼ = (W sᵢ₋₁) · (U hⱼ) / √d。这是原始分数，可大可小，也可以为负。',
  },
  captionWeights:
    'softmax 把分数变成权重：每个权重都为正，总和为 1，即 αⱼ = exp(eⱼ) / Σₖ exp(eₖ)。这组权重就是矩阵中新增的那一行。',
  captionWeightsGuided:
    '这个模型是怎样学到这些权重的：训练时除了翻译，还把每个法语词的权重拉向一个简单的统计对齐器（IBM 模型 1，在同样的训练句对上运行，没有人工标注）为它连上的英文词。这样得到的行比注意力单独学到的更集中；这里的计算方式不变。',
  captionWeightsAlone:
    '这个模型是怎样学到这些权重的：只靠翻译。没有人告诉它哪个英文词对应哪个法语词；训练只奖励正确的法语词，这些权重是它自己发现对写出这些词有用的。',
  captionMix:
    '上下文向量是编码器各位置表示的加权平均：cᵢ = Σⱼ αⱼ hⱼ。色条显示每个词在其中所占的份额；色带显示 cᵢ 的各个分量（紫色为负，橙色为正）。',
  captionGenerate:
    '解码器根据 cᵢ、新的解码器状态和上一个词，为每个法语词给出一个概率。这里列出最可能的五个；贪心解码选择第一个。',
  captionEnd: '解码器选择了 ⟨/s⟩（句末标记），翻译到此结束。这一步的注意力不计入矩阵。',
  captionBeam:
    '束搜索同时保留多个候选译文；引擎只给出最终胜出译文的注意力权重，不提供它的原始分数、上下文向量和候选词。把束宽设为 1，即可看到完整的四个步骤。',
  captionUnk: (word) => `模型选择了 ⟨unk⟩，即词表之外的词；它被替换为注意力权重最大的源词：“${word}”。`,
  notEnglish: (unknown, words) => `这个模型只读英文：${words} 个词中有 ${unknown} 个它不认识，所以上面的译文只是猜测。`,
  captionEosPeak:
    '这个词的大部分权重落在 ⟨/s⟩（句末标记）上。正向编码器读到句末时已读完整句，所以那里的注释向量是整句的概括；只靠翻译训练的模型常常看向那里，而不是某一个词，第一个法语词尤其如此。',
  captionUnkBanned: (word) =>
    `模型的首选是 ⟨unk⟩，这会把英文词“${word}”原样抄进法语译文。小写的英文词放在那里从来都不对，所以解码器改选它最有把握的真实词。`,
  unknownWords: (words) =>
    `这个模型不认识 ${words.length} 个词：${words.map((w) => `“${w}”`).join('、')}。它把它们读作“⟨unk⟩”，所以译文可能漏掉它们或出错。`,
  unknownToken: '不在这个模型的词表中：读作“⟨unk⟩”',
  captionNoAttention:
    '这个模型没有注意力，所以第 1 到 3 步（打分、归一化、加权求和）对它并不存在：编码器把整句压成一个固定的向量 c，解码器为每个法语词读的都是同一个 c。只有第 4 步“选词”是它自己的。',
  noAttentionNote:
    '这个模型没有注意力矩阵：它没有可显示或可编辑的权重。它的解码器为每个词都读取下面这一个固定向量 c，这也是它在长句上迷失方向的原因（见页首的“为什么需要注意力？”）。',
  forceHintNoAttention: '模型不再自行选词，而是逐词读入你的译文：看它认为你的每个词有多大可能。',
  captionUnkBannedMark: (word) =>
    `模型的首选是 ⟨unk⟩，这会把“${word}”原样抄进法语译文。它是模型不认识的标点或符号，不是人名或数字，所以解码器改选它最有把握的真实词。`,
  captionScoreCgru: {
    additive:
      '每个英文词与解码器下一步需要的信息有多匹配？一个小型神经网络把解码器的查询状态 s′ᵢ 与每个源位置 j 逐一比较：eⱼ = vᵀ tanh(W s′ᵢ + U hⱼ)。s′ᵢ 是读入上一个法语词之后的状态；论文用的是读入之前的 sᵢ₋₁，本模型沿用后来的实现（Sennrich 等，2017），对齐更清晰。这是原始分数，可大可小，也可以为负。',
    scaled_dot:
      '每个英文词与解码器下一步需要的信息有多匹配？用缩放点积把解码器的查询状态 s′ᵢ 与每个源位置 j 逐一比较：eⱼ = (W s′ᵢ) · (U hⱼ) / √d。s′ᵢ 是读入上一个法语词之后的状态；论文用的是读入之前的 sᵢ₋₁，本模型沿用后来的实现（Sennrich 等，2017），对齐更清晰。这是原始分数，可大可小，也可以为负。',
  },
  captionScoreTransformer:
    '每个英文词与解码器下一步需要的信息有多匹配？在所选的解码器层中，每个头把解码器对这个词的状态投影成查询 qᵢ，把每个编码器输出投影成键 kⱼ，打分 eⱼ = qᵢ · kⱼ / √d_k。各头平均时，这里是各头分数的平均值。这是原始分数，可大可小，也可以为负。',
  captionWeightsTransformer:
    '每个头用 softmax 把分数变成权重：都为正，总和为 1。各头平均时，这里是各头权重的平均值（而不是平均分数的 softmax）。这组权重就是矩阵中的那一行。',
  captionMixTransformer:
    'Transformer 没有单一的上下文向量：每个解码器层的每个头都用自己的权重混合自己的值向量，各头的结果再拼接并投影。色条显示所选权重中每个词的份额；色带显示 zᵢ，即解码器经过所有层之后对这个词的最终状态，下一个词由它选出（紫色为负，橙色为正）。',
  contextNorm: '长度 ‖c‖',
  contextNormTransformer: '长度 ‖z‖',
  contextSize: (n) => `${n} 个分量`,
  chosen: '选中',
  editedBadge: '已编辑',
  ownRow: '原有',
  ownRowLabel: (word) => `模型自己为“${word}”算出的那一行（已被编辑替换）`,
  tipGiven: '给定',
  tipOwn: (w) => `模型自己的 α = ${w}`,
  tipEdit: '点击或按 Enter：改为注视这里',
  cellGiven: (w, own) => `给定权重 ${w}；模型自己的是 ${own}`,
  matrixEditHelp: '在单元格上按 Enter，即可让这个法语词改为注视这个英文词。',
  captionWeightsEdit: '想问“如果它注视别处会怎样？”：选一个英文词（全部权重都放到它上面），或者拖动一根条（其余的按比例缩放，权重之和仍为 1）。',
  captionWeightsEdited: '这组权重是你给定的，不是模型的 softmax 算出来的。每根条上的细线是模型自己的权重。下面的加权求和与下一个词都由你的权重得出。',
  lookHere: (word) => `改为注视“${word}”`,
  weightOn: (word) => `“${word}”上的权重`,
  ownMark: (w) => `原有 ${w}`,
  engine: '引擎',
  msPerWord: '毫秒/词',
  // The engine's English, mapped where it is known (anything else is shown as it is).
  engineUsed: (variant, reason) => `${zh.variantName(variant)}（${ZH_REASONS[reason] ?? reason}）`,
  variantName: (variant) => ({ 'wasm-simd': 'WebAssembly SIMD 版', 'wasm-scalar': 'WebAssembly 标量版' })[variant] ?? variant,
  modelLabel: (label) => ZH_MODEL_LABELS[label] ?? label,
  scoringKind: (scoring) => ({ additive: '加性注意力', scaled_dot: '缩放点积注意力', none: '无注意力' })[scoring] ?? scoring,
  paramCount: (n) => `${(n / 1e4).toFixed(n >= 1e6 ? 0 : 1)} 万个参数`,
  stepPanel: '步骤面板',
  link: '链接',
  footAuthors: 'Bahdanau、Cho 与 Bengio，',
  footYear: '（2014）。',
  footData: '训练数据：Tatoeba 句对（CC-BY 2.0 FR，来自 www.manythings.org/anki 与 tatoeba.org）。',
  footNote: '这里画出的每个数字都是模型自己的，由本页中的 WebAssembly 计算。',
  errorTitle: '出错了',
  errorModel: '模型无法加载。',
  errorNoWasm: '此浏览器无法运行 WebAssembly，而翻译器需要它。',
  errorNoWorker: '此浏览器无法启动模块化 Web Worker，而翻译器需要它。',
  errorTranslate: '这个句子无法翻译。',
  errorModelParam: 'model= 参数既不是已知的模型名，也不是同源路径；已改用默认模型。',
  errorKeep: '你输入的文字仍保留在输入框中。',
  retry: '重试',
};

export const STRINGS = { en, zh };

// The HTML lang attribute for each table.
export const LANG_TAGS = { en: 'en', zh: 'zh-Hans' };
