// Example sentences, each chosen (on the shipped model) to show something about attention.
export const EXAMPLES = [
  { text: 'The black cat is sleeping.', why: 'one English word becomes several French ones: en train de dormir' },
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
