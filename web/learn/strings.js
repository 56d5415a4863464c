// learn.html's words ("Watch attention learn to align", issue 23), in English and simplified
// Chinese, in the house style of train/strings.js: numbers are passed in (all of them from the
// timelapse file), nothing here computes one. The page merges these over ui/strings.js's table,
// so the matrix keeps its own captions. Sentences around French or English words are arrays of
// parts, the words drawn between them in spans marked with their language.

const int = (n) => (Number.isFinite(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : '—');
const num = (x, d) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
const pct = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x.toFixed(1)}%`);

const SCORING = {
  en: { additive: 'additive (Bahdanau)', scaled_dot: 'scaled dot-product', none: 'no' },
  zh: { additive: '加性（Bahdanau）', scaled_dot: '缩放点积', none: '无' },
};

const en = {
  title: 'Watch attention learn to align',
  tagline: 'One training run, replayed snapshot by snapshot: the attention of a model that was never told which words match.',
  backNav: 'Back to the translator',
  trainNav: 'Train it yourself',
  whyNav: 'Why attention?',
  intro:
    'Every frame is a real snapshot of one training run, and every number and cell here is that snapshot’s own computation, recorded from its saved weights: its loss on held-out pairs, its BLEU on a sample of test sentences, its alignment accuracy against hand-made gold links, and the attention of each sentence below while the model reads a fixed French translation word by word. Nothing is interpolated between frames.',
  loading: 'Loading the recorded run…',
  errorTitle: 'The recorded run could not be shown',
  errorOrigin: (u) => `Only a file on this site can be shown (?data=${u} is not).`,
  errorFetch: (u, why) => `${u}: ${why}`,
  runTitle: 'Which run this is',
  runLine: (f) => {
    const parts = [`The model “${f.model || '—'}”`];
    if (f.scoring) parts.push(`${SCORING.en[f.scoring] ?? f.scoring} attention`);
    if (f.attn !== null) parts.push(`attention width ${f.attn}`);
    if (f.minutes !== null) parts.push(`${num(f.minutes, 0)} minutes of training`);
    parts.push(`${f.frames} snapshots up to step ${int(f.lastStep)}`);
    return `${parts.join(', ')}.`;
  },
  guidedNo: 'Trained by translation alone: no aligner, no guidance of its attention. Whatever alignment you see, it found by itself.',
  guidedYes: (g) => `Its attention was guided by an aligner in training${g ? ` (weight ${g})` : ''}.`,
  initFrom: (c) => `It continued training from another run’s checkpoint (${c}).`,
  commandLabel: 'Made by',
  playerTitle: 'The snapshots',
  play: 'Play',
  pause: 'Pause',
  sliderLabel: 'Snapshot',
  frameValue: (i, n, step, minutes) => `snapshot ${i} of ${n}: step ${int(step)}${minutes === null ? '' : `, ${num(minutes, 1)} min`}`,
  stats: (s) => `Held-out loss ${num(s.loss, 3)} · BLEU ${num(s.bleu, 1)} · alignment ${pct(s.align)} of all links, ${pct(s.offDiagonal)} off the diagonal`,
  marksLegend: 'Marks under the slider: where each sentence’s key word settles; the chosen sentence’s is the tall one.',
  sentenceTitle: 'One sentence’s attention',
  sentenceLabel: 'Sentence',
  sentenceIntro:
    'Columns are the English words, rows the French translation the model is made to read; each cell is the weight α one French word gives one English word. At first every row is nearly uniform; then the rows find the diagonal, and where French changes the order the bright cell jumps off it.',
  keyLine: ['Key link, outlined: “', '” → “', '”.'],
  settled: (step, minutes) => ['“', '” first looks at “', `” for good at step ${int(step)}${minutes === null ? '' : ` (${num(minutes, 1)} min)`}: from that snapshot on, its strongest English word is that one in every later snapshot.`],
  unsettled: ['“', '” → “', '”: not settled in this run (its strongest English word is not that one for good by the last snapshot).'],
  curvesTitle: 'How it learned',
  lossTitle: 'Held-out loss (cross-entropy per French word)',
  lossName: 'held-out pairs',
  bleuTitle: 'BLEU on test sentences',
  bleuName: 'BLEU',
  alignTitle: 'Alignment accuracy against the gold links',
  alignAll: 'all links',
  alignOff: 'off-diagonal links',
  alignDiagonal: 'the plain diagonal (all links)',
  axisSteps: 'steps (log scale)',
  chartNow: (name, v) => `${name}: ${v}`,
  numbersSummary: 'The numbers',
  colStep: 'Step',
  colMinutes: 'Minutes',
  colLoss: 'Held-out loss',
  colBleu: 'BLEU',
  colAlign: 'All links',
  colOff: 'Off-diagonal',
  footAuthors: 'Bahdanau, Cho & Bengio,',
  footYear: '(2014).',
  footNote: 'Every number drawn here comes from the recorded file; the page only draws it.',
};

const zh = {
  title: '看注意力学会对齐',
  tagline: '一次训练，按快照逐帧回放：一个从未被告知哪些词相对应的模型的注意力。',
  backNav: '返回翻译器',
  trainNav: '自己训练一个',
  whyNav: '为什么需要注意力？',
  intro:
    '每一帧都是同一次训练中的一个真实快照，这里的每个数字和每个格子都是那个快照自己的计算结果，由它保存的权重算出并记录下来：它在留出句对上的损失、在一组测试句上的 BLEU、对照人工标注对齐的准确率，以及下面每个句子在模型逐词读一句固定法语译文时的注意力。帧与帧之间没有任何插值。',
  loading: '正在加载记录的训练…',
  errorTitle: '无法显示记录的训练',
  errorOrigin: (u) => `只能显示本站的文件（?data=${u} 不是）。`,
  errorFetch: (u, why) => `${u}：${why}`,
  runTitle: '这是哪一次训练',
  runLine: (f) => {
    const parts = [`模型“${f.model || '—'}”`];
    if (f.scoring) parts.push(`${SCORING.zh[f.scoring] ?? f.scoring}注意力`);
    if (f.attn !== null) parts.push(`注意力宽度 ${f.attn}`);
    if (f.minutes !== null) parts.push(`训练 ${num(f.minutes, 0)} 分钟`);
    parts.push(`${f.frames} 个快照，直到第 ${int(f.lastStep)} 步`);
    return `${parts.join('，')}。`;
  },
  guidedNo: '只靠翻译训练：没有对齐器，注意力没有任何引导。你看到的对齐，都是它自己找到的。',
  guidedYes: (g) => `训练时它的注意力受到对齐器的引导${g ? `（权重 ${g}）` : ''}。`,
  initFrom: (c) => `它是从另一次训练的检查点（${c}）继续训练的。`,
  commandLabel: '生成命令',
  playerTitle: '快照',
  play: '播放',
  pause: '暂停',
  sliderLabel: '快照',
  frameValue: (i, n, step, minutes) => `第 ${i} 个快照，共 ${n} 个：第 ${int(step)} 步${minutes === null ? '' : `，${num(minutes, 1)} 分钟`}`,
  stats: (s) => `留出损失 ${num(s.loss, 3)} · BLEU ${num(s.bleu, 1)} · 对齐准确率：全部对齐 ${pct(s.align)}，非对角线 ${pct(s.offDiagonal)}`,
  marksLegend: '滑块下的标记：每个句子的关键词稳定下来的位置；所选句子的标记较高。',
  sentenceTitle: '一个句子的注意力',
  sentenceLabel: '句子',
  sentenceIntro:
    '列是英语词，行是模型被要求逐词读的法语译文；每个格子是一个法语词给一个英语词的权重 α。起初每一行几乎是均匀的；随后各行找到对角线，而在法语调换词序的地方，最亮的格子会跳离对角线。',
  keyLine: ['关键对齐（已描边）：“', '” → “', '”。'],
  settled: (step, minutes) => ['“', `”从第 ${int(step)} 步起${minutes === null ? '' : `（${num(minutes, 1)} 分钟）`}始终最看向“`, '”：从那个快照起，在之后的每个快照中它最看重的英语词都是这个词。'],
  unsettled: ['“', '” → “', '”：在这次训练中没有稳定下来（到最后一个快照，它最看重的英语词仍不是这个词）。'],
  curvesTitle: '它如何学习',
  lossTitle: '留出损失（每个法语词的交叉熵）',
  lossName: '留出句对',
  bleuTitle: '测试句上的 BLEU',
  bleuName: 'BLEU',
  alignTitle: '对齐准确率（对照人工标注的对齐）',
  alignAll: '全部对齐',
  alignOff: '非对角线对齐',
  alignDiagonal: '单纯的对角线（全部对齐）',
  axisSteps: '步数（对数刻度）',
  chartNow: (name, v) => `${name}：${v}`,
  numbersSummary: '具体数值',
  colStep: '步数',
  colMinutes: '分钟',
  colLoss: '留出损失',
  colBleu: 'BLEU',
  colAlign: '全部对齐',
  colOff: '非对角线',
  footAuthors: 'Bahdanau、Cho 与 Bengio，',
  footYear: '（2014）。',
  footNote: '这里画出的每个数字都来自记录的文件；页面只负责画出来。',
};

export const LEARN_STRINGS = { en, zh };

// The link to this page from the site's other pages (train/nav-link.js), in both languages.
export const LEARN_LINK = { en: 'Watch it learn', zh: '看它学习' };
