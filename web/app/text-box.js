// index.html's sentence box and its ways in: Enter submits (Shift+Enter is a new line), the
// text is kept for the tab's session, an example chip fills it and submits, and on a phone a
// submit brings the result into view.

import { EXAMPLES, exampleChips } from './examples.js';

const STORE_KEY = 'bahdanau-live:text';

// form, input, examples (the chips' container): elements; onSubmit(): a translation is asked for;
// list: the example sentences (the model's target language's: examples.js examplesFor).
export function wireTextBox({ form, input, examples, onSubmit, list = EXAMPLES }) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSubmit();
    revealResult();
  });
  submitOnEnter(input, form);
  input.addEventListener('input', () => {
    try {
      sessionStorage.setItem(STORE_KEY, input.value);
    } catch {
      /* storage disabled: the text box still has it */
    }
  });
  exampleChips(examples, list, (text) => {
    input.value = text;
    input.dispatchEvent(new Event('input'));
    form.requestSubmit();
  });
}

// Enter submits the form; Shift+Enter is a new line; an IME composing Chinese keeps its Enter.
// The pages' sentence boxes all work so.
export function submitOnEnter(input, form) {
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
}

// The text a link gave, else the one typed earlier in this tab.
export function restoreText(input, fromLink) {
  let saved = '';
  try {
    saved = sessionStorage.getItem(STORE_KEY) ?? '';
  } catch {
    /* storage disabled */
  }
  input.value = fromLink || saved;
}

// On a phone the result card starts below the fold, so a tap on Translate or an example seemed
// to do nothing: bring the card's top into view (smoothly, unless reduced motion is asked for).
function revealResult() {
  const card = document.querySelector('.result-card');
  if (!card || card.getBoundingClientRect().top < window.innerHeight * 0.7) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  card.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}
