// index.html's link to the comparison page, kept pointing at what is on screen: the sentence
// in the text box, the caption language and ?simd=0. Its own module, so app.js stays about
// the translator; it reads the page (the text box, <html lang>) rather than app.js's state.
import { compareLink } from './params.js';
import { COMPARE_STRINGS } from '../ui/compare-strings.js';

const link = document.querySelector('[data-role="compare-link"]');
const input = document.querySelector('[data-role="source-input"]');
const simd = new URLSearchParams(location.search).get('simd') === '0' ? false : 'auto';

function update() {
  const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';
  link.textContent = COMPARE_STRINGS[lang].compareLink;
  link.href = compareLink(location.href, { text: input?.value ?? '', simd, lang });
}

if (link) {
  update();
  input?.addEventListener('input', update);
  // app.js fills the box from the URL or the session, and switches the language, after this
  // module ran: follow both, and refresh once more as the link is used.
  new MutationObserver(update).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  for (const ev of ['focus', 'pointerdown', 'click']) link.addEventListener(ev, update);
  queueMicrotask(update);
}
