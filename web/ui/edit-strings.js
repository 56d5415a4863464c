// The words of attention edits ("what if it looked elsewhere?": ui/edit-view.js,
// ui/compare-edit-view.js and the pages' notes about them), in English and simplified Chinese.
// The matrix's and the step panel's own few are in ui/strings.js; the recorded measurement's
// section has ui/findings-strings.js.

const en = {
  title: 'What if it looked elsewhere?',
  hint: 'Try it: pick a French word in the matrix and click an English word (or press Enter on a cell), or drag the weight bars (Normalise, step 2) in the step panel. The decoder then mixes cᵢ from the weights you give instead of its own, and writes the rest of the sentence from there.',
  none: (label) => `${label} has no attention to edit: its decoder reads one fixed vector c for every word, so there is no row of weights to change.`,
  beam: 'Attention edits are decoded greedily, one word at a time: set the beam width to 1 to edit a row.',
  transformer: 'On this Transformer the edit gives the same row to every decoder layer and every head.',
  // what: the given row in words; own: the model's own row in words
  explain: (i, word, what, own) =>
    `Word ${i}, “${word}”: you ${what}. That row is not the model’s own: its own row ${own} (drawn under the edited row, marked “own”). Every word after it is decoded by the model from there, with its own attention.`,
  allOn: (src) => `put all its attention on “${src}”`,
  mixOn: (src, w) => `gave it your own mix of weights (most, ${w}, on “${src}”)`,
  ownOn: (src, w) => `puts ${w} on “${src}”`,
  several: (n) => `${n} words are edited, each marked in the matrix; this compares the last one, with the earlier edits kept on both sides.`,
  ownSide: 'The model’s own attention',
  givenSide: 'Your edit',
  nextWord: (i) => `The five likeliest words at step ${i}`,
  same: (word) => `Both rows put “${word}” first.`,
  changed: (a, b) => `The first choice changes: “${a}” → “${b}”.`,
  original: 'Original translation',
  beforeLast: 'Before this edit',
  after: 'After the edit, as the model goes on',
  forcedLogp: (own, given) => `Your French, read with the model’s own attention: log-probability ${own}; with this edit: ${given}.`,
  forcedWord: (word, own, given) => `“${word}” at this step: ${own} with its own row, ${given} with yours.`,
  reset: 'Back to the model’s own attention',
  hold: 'Keep these weights for every word after it',
  held: 'Held: every later word is given the same weights too (each is marked edited); none of those rows is the model’s own.',
  dropped: (n) => `${n} edit${n === 1 ? '' : 's'} in the link did not fit this sentence (a column or a step it does not have) and ${n === 1 ? 'was' : 'were'} left out.`,
  refused: (message) => `The edits in the link could not be made (${message}), so the model’s own attention is shown.`,
  pastEnd: (i) => `Word ${i} is past the end of the translation, so that edit was not applied.`,
  error: 'The edit could not be decoded.',
  // the comparison page
  compareNone: (label) => `${label}: no attention to edit (one fixed vector c for every word); it decodes as before.`,
  compareHint: 'Try it: click a cell of either matrix (or press Enter on it). That French word of both models then looks at that English word instead, and each model writes the rest of the sentence from there.',
  compareExplain: (i, what) =>
    `Word ${i}: you ${what}, in both models. Those rows are not the models’ own (each one’s own row is drawn under it, marked “own”); every word after it is decoded by each model from there, with its own attention.`,
  compareReset: 'Back to the models’ own attention',
  compareColumns: 'The two models split this sentence into different tokens, so one edit cannot name the same word in both.',
  compareSide: (own, given) => `Next word: “${own}” with its own row, “${given}” with the edit.`,
};

const zh = {
  title: '如果它注视别处会怎样？',
  hint: '试试看：在矩阵中选一个法语词并点击一个英文词（或在单元格上按 Enter），或者拖动步骤面板中“归一化”（第 2 步）的权重条。解码器随后用你给定的权重而不是它自己的权重来混合 cᵢ，并从那里继续写出句子的其余部分。',
  none: (label) => `${label} 没有可以编辑的注意力：它的解码器对每个词都读同一个固定向量 c，所以没有哪一行权重可改。`,
  beam: '注意力编辑按贪心方式逐词解码：请把束宽设为 1，再编辑某一行。',
  transformer: '在这个 Transformer 上，编辑会把同一行权重给每个解码器层的每个头。',
  explain: (i, word, what, own) =>
    `第 ${i} 个词“${word}”：你${what}。这一行不是模型自己的：它自己的那一行${own}（画在被编辑的行下方，标为“原有”）。之后的每个词都由模型从这里接着解码，用的是它自己的注意力。`,
  allOn: (src) => `把它的全部注意力放在了“${src}”上`,
  mixOn: (src, w) => `给了它一组你自己的权重（最多的 ${w} 在“${src}”上）`,
  ownOn: (src, w) => `在“${src}”上放了 ${w}`,
  several: (n) => `共编辑了 ${n} 个词，矩阵中都有标记；这里比较的是最后一个，两边都保留了之前的编辑。`,
  ownSide: '模型自己的注意力',
  givenSide: '你的编辑',
  nextWord: (i) => `第 ${i} 步最可能的五个词`,
  same: (word) => `两行都把“${word}”排在第一。`,
  changed: (a, b) => `首选词变了：“${a}” → “${b}”。`,
  original: '原来的译文',
  beforeLast: '这次编辑之前',
  after: '编辑之后，模型接着写出的译文',
  forcedLogp: (own, given) => `用模型自己的注意力读你的法语译文：对数概率 ${own}；用这次编辑：${given}。`,
  forcedWord: (word, own, given) => `这一步的“${word}”：用它自己的那一行是 ${own}，用你的是 ${given}。`,
  reset: '回到模型自己的注意力',
  hold: '后面的每个词也使用这些权重',
  held: '已保持：后面的每个词也使用同样的权重（都标为已编辑）；这些行都不是模型自己的。',
  dropped: (n) => `链接中有 ${n} 个编辑与这个句子不符（句子里没有那一列或那一步），已略去。`,
  refused: () => '链接中的编辑无法完成（引擎拒绝了它们），所以这里显示的是模型自己的注意力。',
  pastEnd: (i) => `第 ${i} 个词已超出译文的末尾，所以那个编辑没有生效。`,
  error: '这个编辑无法解码。',
  compareNone: (label) => `${label}：没有可以编辑的注意力（每个词都读同一个固定向量 c），照原样解码。`,
  compareHint: '试试看：点击任一矩阵中的单元格（或在上面按 Enter）。两个模型的这个法语词都会改为注视这个英文词，然后各自从那里写出句子的其余部分。',
  compareExplain: (i, what) =>
    `第 ${i} 个词：你在两个模型中都${what}。这些行不是模型自己的（各自原有的那一行画在下方，标为“原有”）；之后的每个词都由各个模型从这里接着解码，用的是它自己的注意力。`,
  compareReset: '回到两个模型自己的注意力',
  compareColumns: '两个模型把这个句子切成了不同的词元，所以同一个编辑无法在两边指向同一个词。',
  compareSide: (own, given) => `下一个词：用它自己的那一行是“${own}”，用编辑后的是“${given}”。`,
};

export const EDIT_STRINGS = { en, zh };
