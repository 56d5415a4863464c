// train.html's words (issue 25: "Train it yourself"), in English and simplified Chinese, in
// the house style of ui/why-strings.js: numbers are passed in, nothing here computes one; the
// paper's notation (α, c) stays in both. The page merges these over ui/strings.js's table, so
// the matrix and the step panel keep their own captions.

const pct = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(1)}%`);
const num = (x, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
const secs = (s) => (Number.isFinite(s) ? s.toFixed(0) : '—');
// 12,345 in both languages. Not toLocaleString: its first call sets up Intl's locale data, a
// 120 ms task on the main thread in headless Chromium, in the middle of training's first reports.
const int = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const en = {
  title: 'Train it yourself',
  tagline:
    'A fresh, small Bahdanau translator learns English→French in this tab, from the first random weights. Watch its loss fall and its attention find the words.',
  backNav: 'Back to the translator',
  whyNav: 'Why attention?',
  compareNav: 'Compare additive and dot-product attention',
  setupTitle: 'The model to train',
  scoringLegend: 'Scoring',
  scoringAdditive: 'Additive (Bahdanau)',
  scoringDot: 'Scaled dot product',
  scoringNone: 'None: one vector c (the bottleneck)',
  presetLabel: 'Size',
  presetSmall: 'Small: slower steps, better translations later (emb 64, hidden 128, attention 128)',
  presetTiny: 'Tiny: quicker steps, the flip sooner (emb 32, hidden 64, attention 32)',
  watchLabel: 'Watched sentence',
  train: 'Train',
  pauseTraining: 'Pause',
  resumeTraining: 'Resume',
  reset: 'Reset',
  cancelHint: 'Training runs in a worker: the page stays usable, and Pause or Reset stop it at once.',
  stateIdle: 'Not started.',
  stateLoading: 'Loading the training data and the engine…',
  stateTraining: 'Training…',
  statePaused: 'Paused.',
  stateStopped: 'Stopped.',
  stateError: 'Training failed.',
  errorTitle: 'Something went wrong',
  errorTrain: 'Training could not run',
  errorTry: 'The model could not translate',
  errorHandoff: 'The model could not be handed to the translator',
  stats: (p) => `${int(p.steps)} steps · ${num(p.stepsPerSecond, 1)} steps/s · epoch ${num(p.epochs, 2)} · loss ${num(p.loss)} · ${secs(p.seconds)} s`,
  statsNone: '0 steps',
  curvesTitle: 'How it learns',
  averageNote:
    'Training updates the weights after every batch, and the training loss is theirs. Everything else on this page (the held-out loss, the alignment accuracy, the watched matrix, “Translate with it now” and the translator) reads their running average over the recent steps, as trainers often evaluate a model: a young model’s latest weights carry the noise of its last few batches, and their average is a steadier and better model of the same run.',
  lossTitle: 'Loss (cross-entropy per target word)',
  lossTrain: 'training batches',
  lossHeldout: 'held-out pairs (averaged weights)',
  accTitle: 'Alignment accuracy against the gold links',
  accAll: 'all links',
  accOff: 'off-diagonal links',
  accNone: 'A model without attention has no alignment to score: its decoder reads one vector c.',
  axisSteps: 'steps',
  curvesNumbers: 'The numbers',
  colSteps: 'Steps',
  colSeconds: 'Seconds',
  colLoss: 'Training loss',
  colHeldout: 'Held-out loss',
  colAcc: 'Accuracy',
  colOff: 'Off-diagonal',
  curvesEmpty: 'The curves grow here once training starts.',
  lossSummary: (train, held) => `Training loss ${num(train)}, held-out loss ${num(held)}.`,
  accSummary: (a) => `Alignment accuracy ${pct(a?.accuracy)} over all links, ${pct(a?.offDiagonal)} off the diagonal.`,
  watchedTitle: 'The watched sentence',
  watchedIntro:
    'Its attention matrix, redrawn every few seconds. By default the model reads a correct French translation word by word, as in training, and each row shows where it looks for that word; or see its own translation, whose words stay wrong long after its attention has learned to align. Early on every French word looks everywhere; then the rows sharpen, and where French swaps two words (livre préféré for favorite book) the bright cells swap too. The more often a word is met, the sooner it aligns: the black cat flips later, because black is in 41 of the 71,890 training pairs and favorite in 86.',
  watchedEmpty: 'The matrix appears here a moment after you press Train.',
  viewLegend: 'Show the attention',
  viewReference: 'reading the reference',
  viewOwn: 'its own translation',
  // The captions' words around two French sentences (drawn in spans marked lang="fr"): the
  // reference, then the model's own translation, or the other way round. No full stop after a
  // closing quote: the quoted sentences end with their own.
  watchedCaptionReference: (steps) => [`Step ${int(steps)}, averaged weights: attention while it reads the reference “`, '” word by word, as in training. Its own translation now: “', '”'],
  watchedCaptionOwn: (steps) => [`Step ${int(steps)}, averaged weights: attention while it writes its own translation: “`, '” The reference: “', '”'],
  // The flip's sentence around the two French words (drawn in spans marked lang="fr").
  flipYes: ['The flip is there: “', '” looks at the second of the two English words, “', '” at the first.'],
  flipNo: 'The flip is not there yet.',
  // flip.js's flipHistory after the flip line: a flip seen first in this matrix, or before it.
  flipFirstTime: ' It appears for the first time in this matrix.',
  flipSince: (first, shown, of) => ` It first appeared at step ${int(first)} and is in ${int(shown)} of the ${int(of)} matrices since.`,
  flipGone: (first, shown, of) => `The flip is not in this matrix. It first appeared at step ${int(first)} and is in ${int(shown)} of the ${int(of)} matrices since: a young model's attention still wavers between measurements.`,
  scrubberLabel: 'Go back over the recorded matrices',
  scrubberValue: (i, n, steps, seconds) => `matrix ${i} of ${n}: after ${int(steps)} steps (${secs(seconds)} s)`,
  scrubberLive: 'Follow the latest',
  tryTitle: 'Translate with it now',
  tryIntro:
    'Any sentence, through the model as it is at this moment (its averaged weights), in the translator’s matrix and step panel. Training goes on meanwhile.',
  tryLabel: 'English sentence',
  tryButton: 'Translate with it now',
  tryWaiting: 'Available once training has started.',
  tryFrom: (steps) => `A snapshot after ${int(steps)} steps.`,
  handoff: 'Open in the translator',
  handoffHint: 'Opens the main page on a snapshot of this model’s averaged weights, kept in this browser only.',
  footNote: 'Every number drawn here is the model’s own, computed in this tab by WebAssembly.',
  footData: 'Training pairs: Tatoeba (CC-BY 2.0 FR, www.manythings.org/anki and tatoeba.org).',
};

const zh = {
  title: '自己训练一个',
  tagline: '一个全新的小型 Bahdanau 翻译器在这个标签页里从随机权重开始学习英译法。看着它的损失下降，看着它的注意力找到对应的词。',
  backNav: '返回翻译器',
  whyNav: '为什么需要注意力？',
  compareNav: '对比加性注意力与点积注意力',
  setupTitle: '要训练的模型',
  scoringLegend: '打分方式',
  scoringAdditive: '加性（Bahdanau）',
  scoringDot: '缩放点积',
  scoringNone: '无：只有一个向量 c（瓶颈）',
  presetLabel: '大小',
  presetSmall: '小：每步较慢，久训后译得更好（嵌入 64，隐藏层 128，注意力 128）',
  presetTiny: '微型：每步更快，更早看到调换（嵌入 32，隐藏层 64，注意力 32）',
  watchLabel: '观察的句子',
  train: '训练',
  pauseTraining: '暂停',
  resumeTraining: '继续',
  reset: '重置',
  cancelHint: '训练在后台线程中进行：页面保持可用，暂停或重置会立即停止它。',
  stateIdle: '尚未开始。',
  stateLoading: '正在加载训练数据和引擎…',
  stateTraining: '训练中…',
  statePaused: '已暂停。',
  stateStopped: '已停止。',
  stateError: '训练失败。',
  errorTitle: '出错了',
  errorTrain: '无法进行训练',
  errorTry: '模型无法翻译',
  errorHandoff: '无法把模型交给翻译器',
  stats: (p) => `${int(p.steps)} 步 · 每秒 ${num(p.stepsPerSecond, 1)} 步 · 第 ${num(p.epochs, 2)} 轮 · 损失 ${num(p.loss)} · ${secs(p.seconds)} 秒`,
  statsNone: '0 步',
  curvesTitle: '它如何学习',
  averageNote:
    '训练在每一批数据之后更新权重，训练损失就是这些最新权重的损失。本页其余的一切（留出损失、对齐准确率、观察句子的矩阵、“现在就用它翻译”和翻译器）读的都是这些权重在最近若干步上的滑动平均，这也是训练者常用的评估方式：年轻模型的最新权重带着最后几批数据的噪声，而它们的平均是同一次训练中更稳定、也更好的模型。',
  lossTitle: '损失（每个目标词的交叉熵）',
  lossTrain: '训练批次',
  lossHeldout: '留出的句对（平均权重）',
  accTitle: '对齐准确率（对照人工标注的对齐）',
  accAll: '全部对齐',
  accOff: '非对角线对齐',
  accNone: '没有注意力的模型没有可评分的对齐：它的解码器只读一个向量 c。',
  axisSteps: '步数',
  curvesNumbers: '具体数值',
  colSteps: '步数',
  colSeconds: '秒',
  colLoss: '训练损失',
  colHeldout: '留出损失',
  colAcc: '准确率',
  colOff: '非对角线',
  curvesEmpty: '开始训练后，曲线会在这里增长。',
  lossSummary: (train, held) => `训练损失 ${num(train)}，留出损失 ${num(held)}。`,
  accSummary: (a) => `对齐准确率：全部对齐 ${pct(a?.accuracy)}，非对角线 ${pct(a?.offDiagonal)}。`,
  watchedTitle: '观察的句子',
  watchedIntro:
    '它的注意力矩阵，每隔几秒重画一次。默认情况下，模型像训练时一样逐词读一句正确的法语译文，每一行显示它为那个词看向哪里；也可以看它自己的译文：在注意力学会对齐之后很久，它选出的词仍然是错的。起初每个法语词到处都看；随后各行变得清晰，而在法语调换两个词顺序的地方（形容词放到名词之后，如“favorite book”译作“livre préféré”），亮格也随之调换。一个词见得越多，学得越快：黑猫（“black cat”）要晚一些才翻转，因为在 71,890 对训练句子中“black”只出现在 41 对里，“favorite”出现在 86 对里。',
  watchedEmpty: '按下“训练”片刻之后，矩阵会出现在这里。',
  viewLegend: '显示注意力',
  viewReference: '读参考译文时',
  viewOwn: '它自己的译文',
  watchedCaptionReference: (steps) => [`第 ${int(steps)} 步（平均权重）：它像训练时一样逐词读参考译文“`, '”时的注意力。它此刻自己的译文：“', '”。'],
  watchedCaptionOwn: (steps) => [`第 ${int(steps)} 步（平均权重）：它写出自己的译文“`, '”时的注意力。参考译文：“', '”。'],
  flipYes: ['调换出现了：“', '”看向两个英语词中的第二个，“', '”看向第一个。'],
  flipNo: '调换还没有出现。',
  flipFirstTime: '这是它第一次出现。',
  flipSince: (first, shown, of) => `它在第 ${int(first)} 步第一次出现，此后的 ${int(of)} 个矩阵中有 ${int(shown)} 个出现了调换。`,
  flipGone: (first, shown, of) => `这个矩阵里没有调换。它在第 ${int(first)} 步第一次出现，此后的 ${int(of)} 个矩阵中有 ${int(shown)} 个出现了调换：年轻模型的注意力在两次测量之间仍会摇摆。`,
  scrubberLabel: '回看已记录的矩阵',
  scrubberValue: (i, n, steps, seconds) => `第 ${i} 个矩阵，共 ${n} 个：${int(steps)} 步之后（${secs(seconds)} 秒）`,
  scrubberLive: '跟随最新的',
  tryTitle: '现在就用它翻译',
  tryIntro: '任意句子，交给此刻的模型（它的平均权重）翻译，显示在翻译器的矩阵和步骤面板中。训练同时继续。',
  tryLabel: '英语句子',
  tryButton: '现在就用它翻译',
  tryWaiting: '开始训练后可用。',
  tryFrom: (steps) => `训练 ${int(steps)} 步后的快照。`,
  handoff: '在翻译器中打开',
  handoffHint: '用这个模型平均权重的快照打开主页面；快照只保存在这个浏览器里。',
  footNote: '这里画出的每个数字都来自模型本身，由 WebAssembly 在这个标签页中算出。',
  footData: '训练句对：Tatoeba（CC-BY 2.0 FR，www.manythings.org/anki 与 tatoeba.org）。',
};

export const TRAIN_STRINGS = { en, zh };

// The link to this page from the site's other pages (train/nav-link.js), in both languages.
export const TRAIN_LINK = { en: 'Train it yourself', zh: '自己训练一个' };

// The main page's note when it runs the model handed over from here (train/handoff.js).
export const TRAINED_NOTE = {
  en: {
    label: 'trained here',
    note: (m) => `This is the model you trained on the training page: ${int(m.steps)} steps, ${SCORING_NAMES.en[m.scoring] ?? m.scoring} scoring, ${m.preset} size. It is kept in this browser only.`,
    missing: 'No trained model is kept in this browser: train one on the training page first.',
  },
  zh: {
    label: '自己训练的模型',
    note: (m) => `这是你在训练页面上训练的模型：${int(m.steps)} 步，${SCORING_NAMES.zh[m.scoring] ?? m.scoring}打分，${m.preset === 'tiny' ? '微型' : '小'}尺寸。它只保存在这个浏览器里。`,
    missing: '这个浏览器里没有保存训练好的模型：请先在训练页面上训练一个。',
  },
};

const SCORING_NAMES = {
  en: { additive: 'additive', scaled_dot: 'scaled dot-product', none: 'no attention' },
  zh: { additive: '加性', scaled_dot: '缩放点积', none: '无注意力' },
};
