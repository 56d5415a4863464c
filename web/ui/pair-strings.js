// The words about language pairs, in both caption languages: the pair choice's label and
// options, each target language's name (ui/target-strings.js puts it where the captions said
// "French"), and what the comparison page says when a pair cannot be compared. Its own table so
// that strings.js keeps the words of one translator and this file those that tell two apart.

export const PAIR_STRINGS = {
  en: {
    pairPick: 'Language pair',
    pairs: { 'en-fr': 'English→French', 'en-zh': 'English→Chinese' },
    // Target language names, as they stand in a sentence ("a French word", "your own Chinese").
    targets: { fr: 'French', zh: 'Chinese' },
    // compare.html: why the choice offers English->Chinese but greys it out.
    compareOnlyOne: 'English→Chinese has one model so far (additive attention), so there is nothing to compare it with yet. Open it on the main page.',
    // compare.html refused ?a= and ?b= whose target languages differ (or both English->Chinese).
    compareMixed: (a, b) => `${a} and ${b} do not translate into the same language, so their matrices cannot be set side by side: the two models of a comparison must share a target language.`,
    compareSame: (name) => `There is only one English→Chinese model (${name}) so far: nothing to compare it with yet.`,
    // What compare.html and why.html add: they show their default models instead.
    fallback: 'Showing the default pair instead.',
  },
  zh: {
    pairPick: '语言对',
    pairs: { 'en-fr': '英语→法语', 'en-zh': '英语→中文' },
    targets: { fr: '法语', zh: '中文' },
    compareOnlyOne: '英语→中文目前只有一个模型（加性注意力），暂时没有可以与之比较的模型。请在主页面打开它。',
    compareMixed: (a, b) => `${a} 和 ${b} 的目标语言不同，它们的矩阵无法并排比较：比较的两个模型必须译成同一种语言。`,
    compareSame: (name) => `目前只有一个英语→中文模型（${name}）：暂时没有可以与之比较的模型。`,
    fallback: '现在改为显示默认的一对模型。',
  },
};

// BCP 47 tags for a target language's text on the page (lang= on the output and the typed
// translation), so a browser picks Chinese glyph forms and a screen reader the right voice.
export const TARGET_TAGS = { fr: 'fr', zh: 'zh-Hans', en: 'en' };
