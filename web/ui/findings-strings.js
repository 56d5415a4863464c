// The words of "What you can learn from editing attention" (ui/edit-findings.js), in English and
// simplified Chinese. The measurement's own words (its `what` and `edit` values, the reason a
// model is left out) are mapped here where they are known; anything else shows as written.

const en = {
  title: 'What you can learn from editing attention',
  // Paragraphs; {cite} is a paper's title, cited as it was published.
  text: [
    ['Do attention weights explain the word a model writes? Jain & Wallace (2019) argued they often do not (', { cite: 'Attention is not Explanation' }, '); Wiegreffe & Pinter (2019) answered that it depends on the test. Editing attention is such a test: if the word changes when its row moves, the row mattered for it; if it does not, the word came from elsewhere (the decoder’s state, the words before it).'],
    ['The measurement reads the human translations of the alignment gold set with each model (forced decoding). At every French word with a sure gold link, it decodes the same step again with all its attention moved to the linked English word, and separately to each other source word, one at a time (averaged), and counts how often the model’s own first choice changes, how often the human word comes first before and after, and how much log-probability the human word gains or loses. A Transformer is edited in every head at once, and in each decoder layer’s head alone, which is also switched off (the usual head-ablation probe). The model without attention is the control: it has no weights to move.'],
  ],
  missing: 'The measurement is not recorded yet: the table appears here once its script has been run.',
  bad: 'The recorded measurement could not be read.',
  // what: the file's date and command, as a node (quoted as typed)
  recorded: (what) => ['Recorded: ', what, '. These numbers were measured once, by that command; they are not computed in your browser.'],
  // One line per model, from its recorded rows: moved elsewhere, then to the gold word.
  lesson: (model, other, gold) => `${model}: with its attention moved to another source word, its first choice changed at ${other} of the steps; moved to the gold English word, at ${gold}.`,
  caption: 'Attention edits at each gold-linked step, per model (recorded numbers)',
  columns: { model: 'Model', edit: 'Edited', what: 'Weight moved to', steps: 'Steps', changed: 'First choice changed',
    top1: 'Human word first: own → edited', dlogp: 'Mean Δ log p of the human word' },
  perHead: (model, n) => `${model}: each decoder layer’s head alone (${n} rows, recorded)`,
  what: {
    gold: 'its gold English word', 'to the gold word': 'its gold English word',
    other: 'another source word (mean over each)', 'to another word': 'another source word',
    off: 'nowhere: the head switched off',
  },
  edit: (e) => (e === 'attention' ? 'its attention' : e === 'every head' ? 'every head at once'
    : /^L(\d+)H(\d+)$/.test(e) ? e.replace(/^L(\d+)H(\d+)$/, 'layer $1, head $2') : e),
  reasons: {
    'no attention: every step reads the same fixed vector c, so there is no weight to move':
      'no attention: every step reads the same fixed vector c, so there is no weight to move',
  },
};

const zh = {
  title: '编辑注意力能告诉我们什么',
  text: [
    ['注意力权重能解释模型写出的词吗？Jain 与 Wallace（2019）认为往往不能（', { cite: 'Attention is not Explanation' }, '）；Wiegreffe 与 Pinter（2019）回应说，这取决于怎样检验。编辑注意力就是一种检验：如果把这一行移开后词变了，说明这一行对这个词有作用；如果没变，这个词来自别处（解码器的状态、它之前的词）。'],
    ['测量用每个模型读入对齐黄金集中的人工译文（强制解码）。在每个有确定黄金对齐的法语词上，把同一步重新解码：一次把全部注意力移到对齐的英文词上，另外再分别移到每个别的源词上（逐个进行，取平均），统计模型自己的首选词有多少次改变、人工译文的词在编辑前后有多少次排在第一，以及它在对数概率上得到或失去多少。Transformer 一次编辑所有的头，也单独编辑每个解码器层的每个头，并把它关掉（常用的“头消融”检验）。没有注意力的模型是对照组：它没有可移动的权重。'],
  ],
  missing: '测量结果尚未记录：运行它的脚本之后，表格会出现在这里。',
  bad: '记录的测量结果无法读取。',
  recorded: (what) => ['记录于：', what, '。这些数字是由该命令测量一次得到的记录，不是在你的浏览器里计算的。'],
  lesson: (model, other, gold) => `${model}：把注意力移到另一个源词上时，首选词在 ${other} 的步骤上改变；移到对齐的英文词上时，是 ${gold}。`,
  caption: '在每个有黄金对齐的步骤上编辑注意力，按模型列出（记录值）',
  columns: { model: '模型', edit: '编辑的对象', what: '权重移到', steps: '步数', changed: '首选词改变',
    top1: '人工译文的词排第一：原有 → 编辑后', dlogp: '人工译文词的平均 Δ log p' },
  perHead: (model, n) => `${model}：单独编辑每个解码器层的每个头（${n} 行，记录值）`,
  what: {
    gold: '它对齐的英文词', 'to the gold word': '它对齐的英文词',
    other: '另一个源词（逐个取平均）', 'to another word': '另一个源词',
    off: '不放在任何地方：关掉这个头',
  },
  edit: (e) => (e === 'attention' ? '它的注意力' : e === 'every head' ? '同时编辑所有的头'
    : /^L(\d+)H(\d+)$/.test(e) ? e.replace(/^L(\d+)H(\d+)$/, '第 $1 层第 $2 个头') : e),
  reasons: {
    'no attention: every step reads the same fixed vector c, so there is no weight to move':
      '没有注意力：每一步都读同一个固定向量 c，所以没有可移动的权重',
  },
};

export const FINDINGS_STRINGS = { en, zh };
