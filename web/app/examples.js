// Example sentences, each chosen (on the shipped en-fr, trained by translation alone) to show
// something about attention, a miss included, since the page shows the model's own output; why
// is the chip's tooltip, zh the same in Chinese (target words quoted).

import { h } from '../ui/dom.js';

export const EXAMPLES = [
  { text: 'I have a black cat.', why: 'the adjective moves after the noun: un chat noir', zh: '形容词移到名词之后：“un chat noir”' },
  { text: 'The black cat is sleeping.', why: 'a miss: the additive model, trained by translation alone, drops noir here (the dot-product and the guided model keep it)',
    zh: '一个错误：只靠翻译训练的加性模型在这里漏掉了“noir”（点积模型和有提示的模型保留了它）' },
  { text: 'I bought a red car.', why: 'the adjective moves after the noun: une voiture rouge', zh: '形容词移到名词之后：“une voiture rouge”' },
  { text: 'Where is my black umbrella?', why: 'a question, and the adjective moves after the noun', zh: '一个问句，形容词同样移到名词之后' },
  { text: 'I live in a small house.', why: 'an adjective that stays before the noun: une petite maison', zh: '形容词留在名词之前：“une petite maison”' },
  { text: "I don't know what to do.", why: 'the negation splits around the verb: ne … pas', zh: '否定词分在动词两边：“ne … pas”' },
  { text: 'Are you hungry?', why: 'a question whose words do not match one to one: avez-vous faim ?', zh: '词与词无法一一对应的问句：“avez-vous faim ?”' },
  { text: 'My name is Kowalski.', why: 'an unknown name, copied through attention from the source word it looks at', zh: '模型不认识的名字，通过注意力从它看向的源词照抄过来' },
  {
    text: 'When I was young, I walked to school with my brother every morning.',
    why: 'a long sentence: the alignment runs roughly along the diagonal',
    zh: '一个长句：对齐大致沿着对角线',
  },
];

// For an English->Chinese model: sentences where Chinese moves a whole phrase, so a row jumps
// far from the diagonal (checked on the en-zh model; the tooltips say what Chinese does, not
// the model's exact words, since a retrained model may phrase it a little differently).
export const ZH_EXAMPLES = [
  { text: 'I ate an apple yesterday.', why: 'yesterday moves before the verb: 昨天 looks ahead at the last English word, then 吃 (ate) jumps back',
    zh: '“yesterday”移到动词之前：写“昨天”时看向句末的英文词，写“吃”时再跳回“ate”' },
  { text: 'I will meet him at the station tomorrow.', why: 'time and place both come before the verb: 明天 and 在车站 first, then 见 (meet)',
    zh: '时间和地点都放在动词之前：先写“明天”和“在车站”，再写“见”' },
  { text: 'This is the house where I was born.', why: 'the relative clause moves before the noun: 我出生的 comes before 房子 (house)',
    zh: '关系从句移到名词之前：“我出生的”在“房子”之前' },
  { text: 'I read a book in the library yesterday.', why: 'time and place before the verb: 昨天 and 在图书馆 come before 读 (read)',
    zh: '时间和地点放在动词之前：“昨天”和“在图书馆”在“读”之前' },
  { text: 'She went to Paris last year.', why: 'last year moves to the front: 去年 before 去 (went)', zh: '“last year”移到前面：“去年”在“去”之前' },
  { text: 'I play the piano every evening.', why: 'every evening moves before the verb: 每天晚上 before 弹 (play)', zh: '“every evening”移到动词之前：“每天晚上”在“弹”之前' },
  { text: 'Do you like apples?', why: 'a yes-no question: Chinese keeps the statement order and ends in 吗, which looks at the question mark',
    zh: '是非问句：中文保持陈述句的语序，句末加“吗”，它看向问号' },
];

// The chips for a model's target language: French's by default.
export const examplesFor = (target) => (target === 'zh' ? ZH_EXAMPLES : EXAMPLES);

// For compare.html: sentences that show where the additive and the dot-product model agree and
// where they part (checked on the shipped en-fr and en-fr-dot models, greedy).
export const COMPARE_EXAMPLES = [
  { text: 'I have a black cat.', why: 'both write j\'ai un chat noir: compare how each flips black cat into chat noir',
    zh: '两个模型都写出“j\'ai un chat noir”：比较它们各自如何把“black cat”调换成“chat noir”' },
  { text: 'I bought a red car.', why: 'the same translation from both: where do their weights differ?', zh: '两个模型译文相同：它们的权重哪里不同？' },
  { text: 'I live in a small house.', why: 'an adjective that stays before the noun: une petite maison', zh: '形容词留在名词之前：“une petite maison”' },
  { text: "I don't know what to do.", why: 'the negation splits around the verb: ne … pas', zh: '否定词分在动词两边：“ne … pas”' },
  { text: 'Where is my black umbrella?', why: 'both write mon parapluie noir: compare where each looks for noir',
    zh: '两个模型都写出“mon parapluie noir”：比较它们写“noir”时各自看向哪里' },
  { text: 'The black cat is sleeping.', why: 'the dot-product model writes le chat noir, the additive one drops noir: where does each look after chat?',
    zh: '点积模型写出“le chat noir”，加性模型漏掉了“noir”：写完“chat”之后，它们各自看向哪里？' },
  {
    text: 'When I was young, I walked to school with my brother every morning.',
    why: 'a long sentence: two diagonals, and the scoring cost grows with its length',
    zh: '一个长句：两条对角线，打分的开销随句长增长',
  },
];

// The chips' tooltips in the page's language: container's buttons, in the order of examples.
export function titleExamples(container, examples, lang) {
  [...container.children].forEach((chip, k) => {
    if (examples[k]) chip.title = lang === 'zh' ? examples[k].zh : examples[k].why;
  });
}

// One chip per example in container, its reason as the tooltip; a click calls pick(text).
export function exampleChips(container, examples, pick) {
  container.replaceChildren(...examples.map(({ text, why }) =>
    h('button', { type: 'button', class: 'chip', title: why, text, on: { click: () => pick(text) } })));
}
