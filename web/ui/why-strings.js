// why.html's words, and those of the views it shares with the widget's mode="bottleneck" (the
// side-by-side figure with its c strip, the BLEU chart), in English and simplified Chinese.
// Numbers are passed in; nothing here computes one. The paper's notation stays in both.

const secs = (ms) => (ms / 1000).toFixed(1);

const en = {
  // page
  title: 'Why attention?',
  tagline:
    'The first chapter of the story, with real numbers: a translator that squeezes every sentence into one fixed vector, against one that looks back at the English words.',
  back: 'Back to the translator',
  compareNav: 'Compare additive and dot-product attention',
  problemTitle: 'The problem: one vector for any sentence',
  problem1:
    'Before attention, a neural translator was an encoder–decoder (Cho et al., 2014): one recurrent network reads the English sentence, and a second one writes the French from a single vector c that the first leaves behind.',
  problem2:
    'That vector has the same 512 numbers for a sentence of three words or of fifty, and the decoder reads nothing else of the English. Bahdanau, Cho and Bengio (2014) showed that such a translator gets worse quickly as sentences grow.',
  problem3:
    'Their fix is attention: for every French word, the decoder weighs all the English words again and mixes their annotations into a context of its own.',
  problem4:
    'Below, two translators of the same size, trained the same way on the same sentences, differ only in that: en-fr has attention, en-fr-noattn (the paper’s RNNencdec baseline) has not.',
  chartTitle: 'Translation quality against sentence length',
  chartIntro:
    'Corpus BLEU (0–100, higher is better) of each model on test-split inputs of 1 to 60 English words, in bands of ten. Long inputs are consecutive Tatoeba sentences joined together.',
  chartCaption: (j, n) => `${j.split} split, ${j.decoding} decoding, ${n} sentences per band; ${j.bleu}; measured ${j.date} by:`,
  pairTitle: 'One long sentence, two translators',
  pairIntro:
    'The same sentence, decoded word by word by both models in lockstep. Left, without attention: the decoder gets one vector c, computed once from the whole sentence, and reads it unchanged for every French word. Right, with attention: each French word gets its own mix of the English words, a new row of the matrix.',
  inputLabel: 'English sentence',
  inputHint: 'Press Enter to translate. The default is a sentence of the test split; type your own to try another.',
  go: 'Translate with both',
  reference: 'Reference translation (Tatoeba):',
  loadingModels: 'Downloading the two models…',
  errorModelParam: 'The a= or b= parameter is not a known model name nor a same-origin path; using the default model.',
  errorData: 'The measured numbers (data/bleu-by-length.json, data/long-sample.json) could not be loaded.',
  runTitle: 'Run the experiment yourself',
  runIntro: (n, per, measured) =>
    `Translate ${n} sentences of the long-input set (${per} per band of ten words, 1 to 60 words) with both models, here in your browser, each in its own Web Worker, and score them with the same BLEU as scripts/eval. ` +
    `Measured: ${measured.sentences} sentences in about ${measured.seconds} s in headless Chromium on a loaded two-core test machine; a laptop should be faster.`,
  runNote: (per) =>
    `${per} sentences per band give noisier numbers than scripts/eval’s: the thin lines are the published ones, for comparison.`,
  run: 'Run the experiment',
  cancel: 'Cancel',
  runWaiting: 'Available once both models are loaded.',
  runStarting: (n) => `0 / ${n} sentences · starting…`,
  runCount: (done, n) => `${done} / ${n} sentences`,
  runProgress: (done, n, leftMs) =>
    `${en.runCount(done, n)} · ${leftMs === null ? 'estimating the time left…' : `about ${Math.max(1, Math.round(leftMs / 1000))} s left`}`,
  runDone: (n, ms) => `${n} sentences × 2 models in ${secs(ms)} s in this browser.`,
  runCancelled: (done, n) => `Cancelled after ${done} of ${n} sentences: the bold lines show those ${done} (partial).`,
  runFailed: (message) => `The experiment stopped: ${message}`,
  attributionLabel: 'Sentences:',
  sampleSource: (attribution) => attribution, // data/long-sample.json's own words
  outputs: 'What each model wrote',
  outEnglish: 'English',
  outReference: 'Reference',
  sampleAttribution: 'Default sentence and reference from Tatoeba (tatoeba.org), CC-BY 2.0 FR.',
  footRefs: 'References:',
  footNote: 'Every number drawn here is the models’ own, computed in this page by WebAssembly, or read from scripts/eval’s output.',

  // the side-by-side figure (bottleneck-view.js, c-strip.js)
  kind: { none: 'No attention (RNNencdec)', additive: 'Additive attention', scaled_dot: 'Scaled dot-product attention', transformer: 'Transformer' },
  who: { none: 'no attention', additive: 'attention', scaled_dot: 'attention', transformer: 'Transformer' },
  matrixLabel: (kind) => `Attention matrix, ${kind}`,
  position: (i, n) => `step ${i} of ${n}`,
  sideWords: (label, n, done) => `${label}: ${n} ${n === 1 ? 'word' : 'words'}${done ? ', finished' : ''}`,
  stripTitle: 'The context c = [→h_T; ←h_1]',
  stripSize: (n) => `${n} numbers, computed once from the whole sentence`,
  stripHalves: ['→h_T: forward RNN, after the last word', '←h_1: backward RNN, after the first word'],
  stripLabel: (n, lo, hi) =>
    `Context vector c, ${n} numbers from ${lo} to ${hi}. Arrow keys read one number at a time.`,
  stripValue: (k, v) => `c[${k}] = ${v}`,
  stripEmpty: 'c appears here once the sentence is encoded.',
  stripSame: 'The same vector for every word.',
  stripRead: (i, word, n) => `Word ${i}, “${word}”, reads it unchanged (${n} ${n === 1 ? 'word' : 'words'} so far).`,
  stripReadEnd: (n) => `The end of the sentence was chosen from it too: ${n} steps, one vector.`,
  stripDiffers: 'This model’s c changes from word to word: the strip shows the current word’s.',
  stripScale: 'purple negative, orange positive',

  // the BLEU chart (bleu-chart.js)
  axisX: 'source length (English words)',
  axisY: 'BLEU',
  chartLabel: 'BLEU against source length',
  series: (model, kind) => `${model}: ${kind}`,
  seriesKind: { none: 'no attention', additive: 'additive attention', scaled_dot: 'scaled dot-product attention', transformer: 'Transformer' },
  published: (n) => `scripts/eval, ${n} sentences`,
  yours: (n, partial) => `measured in your browser on ${n} sentences${partial ? ' (partial)' : ''}`,
  numbers: 'The numbers',
  bucketHead: 'English words',
  describe: (name, points) => `${name}: ${points.map(([b, v]) => `${b} words ${v}`).join(', ')}`,
  noValue: 'no sentences yet',

  // the lineage strip (lineage-strip.js)
  lineageTitle: 'The lineage: four translators, one story',
  lineageIntro:
    'No attention, then additive attention (Bahdanau 2014), then the scaled dot product, then the Transformer (Vaswani 2017), which keeps the dot product and drops the recurrent networks. The chart above draws each one’s BLEU by sentence length; here are their sizes, and the time one decoder step spends scoring, measured in this browser.',
  lineageLabel: 'The four models, in order',
  lineageParams: 'Parameters',
  lineageCost: 'Scoring, per decoder step',
  lineageBleu: 'BLEU, scripts/eval',
  lineageBleuValue: (short, long) => `${short} at 1–10 words, ${long} at 51–60`,
  lineageNoBleu: 'not in scripts/eval’s table yet',
  lineageNoScore: 'none: nothing to score, the decoder reads one fixed vector',
  lineageCostValue: (median, batches) => `${median}, the median of ${batches} timed ${batches === 1 ? 'batch' : 'batches'}`,
  lineageWaiting: 'measured once this part of the page is in view',
  lineageLoading: 'loading the model…',
  lineageMissing: 'not available: its file is not on this server yet',
  lineageFailed: (why) => `could not be loaded: ${why}`,
  lineageSentence: (text) => `Timed on the sentence above: “${text}”. Times move with the machine’s load: compare them within one page load.`,
  lineageTrain: 'Training, scripts/train-speed',
  lineageTrainValue: (tps, minutes, threads, bf16) =>
    `${tps} target tokens/s, ${minutes} min per epoch (${threads} ${threads === 1 ? 'thread' : 'threads'}${bf16 ? ', bf16' : ''}, same batches)`,
  lineageTrainRatio: (ratio) => `: ${ratio}× en-fr’s tokens/s`,
  lineageTrainNone: 'not measured',
  lineageTrainMissing: 'not available: data/train-speed.json could not be read',
  lineageTrainNote: 'Training speeds: medians of full training steps (forward, backward, update), the two models alternating on the same batches, measured by',
  lineageTrainOn: 'on',
  lineageTrainEnd: '.',
  lineageDecode: 'Decoding, this browser',
  lineageDecodeValue: (ms, encodeMs, runs) =>
    `${ms} ms/word (decoder; encoder ${encodeMs} ms per sentence), the median of ${runs} greedy translations of the timed sentence`,
};

const zh = {
  title: '为什么需要注意力？',
  tagline: '用真实的数字讲述故事的第一章：一个把每个句子都压缩成一个固定向量的翻译器，对比一个会回头查看英文词的翻译器。',
  back: '返回翻译器',
  compareNav: '对比加性注意力与点积注意力',
  problemTitle: '问题所在：任何句子都只有一个向量',
  problem1:
    '在注意力机制出现之前，神经机器翻译采用编码器–解码器结构（Cho 等，2014）：一个循环神经网络读入英文句子，另一个网络只根据前者留下的一个向量 c 写出法语。',
  problem2:
    '无论句子有三个词还是五十个词，这个向量都只有同样的 512 个数，而解码器读不到英文的任何其他信息。Bahdanau、Cho 与 Bengio（2014）指出，随着句子变长，这样的翻译器质量下降得很快。',
  problem3:
    '他们的办法就是注意力：每写一个法语词，解码器都重新衡量所有英文词，把它们的表示按权重混合成这一步专属的上下文向量。',
  problem4:
    '下面两个翻译器大小相同、训练方式相同、训练数据相同，唯一的区别是：en-fr 有注意力，en-fr-noattn（论文中的 RNNencdec 基线）没有。',
  chartTitle: '翻译质量与句子长度',
  chartIntro: '每个模型在测试集上、按英文词数（1 到 60，每 10 个一段）分组的语料级 BLEU（0–100，越高越好）。长输入由连续的 Tatoeba 句子拼接而成。',
  // The JSON's own words (split, decoding, its BLEU definition) are English: named here instead.
  chartCaption: (j, n) =>
    `${{ test: '测试', dev: '验证' }[j.split] ?? j.split}集，${j.decoding === 'greedy' ? '贪心' : j.decoding}解码，每段 ${n} 句；BLEU 的算法与 scripts/eval 相同；测量于 ${j.date}，命令：`,
  pairTitle: '一个长句，两个翻译器',
  pairIntro:
    '同一个句子，由两个模型同步地逐词解码。左边没有注意力：解码器只得到一个由整句一次算出的向量 c，每写一个法语词都原样读取它。右边有注意力：每个法语词都有自己的一组英文词权重，即矩阵中新的一行。',
  inputLabel: '英文句子',
  inputHint: '按 Enter 翻译。默认句子来自测试集；也可以输入你自己的句子。',
  go: '用两个模型翻译',
  reference: '参考译文（Tatoeba）：',
  loadingModels: '正在下载两个模型…',
  errorModelParam: 'a= 或 b= 参数既不是已知的模型名，也不是同源路径；已改用默认模型。',
  errorData: '无法加载测量数据（data/bleu-by-length.json、data/long-sample.json）。',
  runTitle: '亲自做这个实验',
  runIntro: (n, per, measured) =>
    `用两个模型翻译长输入集中的 ${n} 个句子（1 到 60 个词，每 10 个词一段，每段 ${per} 句），就在你的浏览器里、每个模型各用一个 Web Worker，并用与 scripts/eval 相同的 BLEU 打分。` +
    `实测：在一台负载较高的双核测试机上，无界面 Chromium 翻译 ${measured.sentences} 句约需 ${measured.seconds} 秒；笔记本电脑通常更快。`,
  runNote: (per) => `每段只有 ${per} 句，数字比 scripts/eval 的波动更大；细线是已发布的结果，供对照。`,
  run: '开始实验',
  cancel: '取消',
  runWaiting: '两个模型加载完成后即可开始。',
  runStarting: (n) => `0 / ${n} 句 · 正在开始…`,
  runCount: (done, n) => `${done} / ${n} 句`,
  runProgress: (done, n, leftMs) =>
    `${zh.runCount(done, n)} · ${leftMs === null ? '正在估计剩余时间…' : `大约还需 ${Math.max(1, Math.round(leftMs / 1000))} 秒`}`,
  runDone: (n, ms) => `${n} 句 × 2 个模型，在这个浏览器中用时 ${secs(ms)} 秒。`,
  runCancelled: (done, n) => `已在 ${n} 句中的第 ${done} 句后取消：粗线只反映这 ${done} 句（不完整）。`,
  runFailed: (message) => `实验中止：${message}`,
  attributionLabel: '句子来源：',
  // What data/long-sample.json's attribution says (scripts/eval writes it in English).
  sampleSource: () =>
    'Tatoeba（https://tatoeba.org）的英文和法文句子，CC-BY 2.0 FR；测试集中的连续句子由 scripts/nmt/joined.py 拼接成较长的输入。',
  outputs: '每个模型的译文',
  outEnglish: '英文',
  outReference: '参考译文',
  sampleAttribution: '默认句子及其参考译文来自 Tatoeba（tatoeba.org），CC-BY 2.0 FR。',
  footRefs: '参考文献：',
  footNote: '这里画出的每个数字都来自模型本身：由本页中的 WebAssembly 计算，或读自 scripts/eval 的输出。',

  kind: { none: '无注意力（RNNencdec）', additive: '加性注意力', scaled_dot: '缩放点积注意力', transformer: 'Transformer' },
  who: { none: '无注意力', additive: '有注意力', scaled_dot: '有注意力', transformer: 'Transformer' },
  matrixLabel: (kind) => `注意力矩阵：${kind}`,
  position: (i, n) => `第 ${i} 步，共 ${n} 步`,
  sideWords: (label, n, done) => `${label}：${n} 个词${done ? '，已完成' : ''}`,
  stripTitle: '上下文向量 c = [→h_T; ←h_1]',
  stripSize: (n) => `${n} 个数，由整句一次算出`,
  stripHalves: ['→h_T：正向 RNN 读完最后一个词', '←h_1：反向 RNN 读完第一个词'],
  stripLabel: (n, lo, hi) => `上下文向量 c，共 ${n} 个数，从 ${lo} 到 ${hi}。可用方向键逐个读取。`,
  stripValue: (k, v) => `c[${k}] = ${v}`,
  stripEmpty: '句子编码后，c 会显示在这里。',
  stripSame: '每个词用的都是同一个向量。',
  stripRead: (i, word, n) => `第 ${i} 个词“${word}”原样读取它（到目前为止共 ${n} 个词）。`,
  stripReadEnd: (n) => `句末标记同样由它决定：${n} 步，始终是同一个向量。`,
  stripDiffers: '这个模型的 c 随词而变：色带显示的是当前词的 c。',
  stripScale: '紫色为负，橙色为正',

  axisX: '源句长度（英文词数）',
  axisY: 'BLEU',
  chartLabel: 'BLEU 与源句长度',
  series: (model, kind) => `${model}：${kind}`,
  seriesKind: { none: '无注意力', additive: '加性注意力', scaled_dot: '缩放点积注意力', transformer: 'Transformer' },
  published: (n) => `scripts/eval，${n} 句`,
  yours: (n, partial) => `在你的浏览器中测量，${n} 句${partial ? '（不完整）' : ''}`,
  numbers: '具体数字',
  bucketHead: '英文词数',
  describe: (name, points) => `${name}：${points.map(([b, v]) => `${b} 个词 ${v}`).join('，')}`,
  noValue: '尚无句子',

  lineageTitle: '谱系：四个翻译器，一个故事',
  lineageIntro:
    '从没有注意力，到加性注意力（Bahdanau 2014），再到缩放点积，最后是 Transformer（Vaswani 2017）：它保留点积，去掉了循环网络。上面的图画出了每个模型随句长变化的 BLEU；这里是它们的规模，以及在本浏览器中实测的每个解码步用于打分的时间。',
  lineageLabel: '按顺序排列的四个模型',
  lineageParams: '参数量',
  lineageCost: '每个解码步的打分时间',
  lineageBleu: 'BLEU（scripts/eval）',
  lineageBleuValue: (short, long) => `1–10 词：${short}；51–60 词：${long}`,
  lineageNoBleu: '尚未列入 scripts/eval 的表格',
  lineageNoScore: '无：没有要打分的对象，解码器只读一个固定向量',
  lineageCostValue: (median, batches) => `${median}（${batches} 批计时的中位数）`,
  lineageWaiting: '滚动到这一部分时开始测量',
  lineageLoading: '正在加载模型…',
  lineageMissing: '不可用：服务器上还没有它的文件',
  lineageFailed: (why) => `无法加载：${why}`,
  lineageSentence: (text) => `计时所用的句子（即上面的句子）：“${text}”。时间随机器负载而变：请在同一次页面加载中比较。`,
  lineageTrain: '训练速度（scripts/train-speed）',
  lineageTrainValue: (tps, minutes, threads, bf16) =>
    `每秒 ${tps} 个目标词元，每轮 ${minutes} 分钟（${threads} 个线程${bf16 ? '，bf16' : ''}，相同的批次）`,
  lineageTrainRatio: (ratio) => `；每秒词元数为 en-fr 的 ${ratio} 倍`,
  lineageTrainNone: '未测量',
  lineageTrainMissing: '不可用：无法读取 data/train-speed.json',
  lineageTrainNote: '训练速度：完整训练步（前向、反向、参数更新）的中位数，两个模型在相同的批次上交替计时，测量命令为',
  lineageTrainOn: '，机器：',
  lineageTrainEnd: '。',
  lineageDecode: '解码速度（本浏览器）',
  lineageDecodeValue: (ms, encodeMs, runs) =>
    `每个输出词 ${ms} 毫秒（解码器；编码器每句 ${encodeMs} 毫秒），对计时句子贪心翻译 ${runs} 次的中位数`,
};

export const WHY_STRINGS = { en, zh };
