// Example sentences, each chosen (on the shipped model) to show something about attention.
export const EXAMPLES = [
  { text: 'The black cat is sleeping.', why: 'the adjective moves after the noun: le chat noir' },
  { text: 'I bought a red car.', why: 'the adjective moves after the noun: une voiture rouge' },
  { text: 'Where is my black umbrella?', why: 'a question, and the adjective moves after the noun' },
  { text: 'I live in a small house.', why: 'an adjective that stays before the noun: une petite maison' },
  { text: "I don't know what to do.", why: 'the negation splits around the verb: ne … pas' },
  { text: 'Are you hungry?', why: 'a question whose words do not match one to one: as-tu faim ?' },
  { text: 'My name is Kowalski.', why: 'an unknown name, copied through attention from the source word it looks at' },
  {
    text: 'When I was young, I walked to school with my brother every morning.',
    why: 'a long sentence: the alignment runs roughly along the diagonal',
  },
];

// For compare.html: sentences that show where the additive and the dot-product model agree and
// where they part (checked on the shipped en-fr and en-fr-dot models, greedy).
export const COMPARE_EXAMPLES = [
  { text: 'I have a black cat.', why: 'both write j\'ai un chat noir: compare how each flips black cat into chat noir' },
  { text: 'I bought a red car.', why: 'the same translation from both: where do their weights differ?' },
  { text: 'I live in a small house.', why: 'an adjective that stays before the noun: une petite maison' },
  { text: "I don't know what to do.", why: 'the negation splits around the verb: ne … pas' },
  { text: 'Where is my black umbrella?', why: 'both write mon parapluie noir: compare where each looks for noir' },
  { text: 'The black cat is sleeping.', why: 'the additive model writes dort, the dot-product one est en train de dormir: one English word, one or four French ones' },
  {
    text: 'When I was young, I walked to school with my brother every morning.',
    why: 'a long sentence: two diagonals, and the scoring cost grows with its length',
  },
];
