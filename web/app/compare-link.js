// The links to the other pages, kept pointing at what is on screen: compare.html gets the
// sentence in the text box, the caption language and ?simd=0; why.html (which opens on its own
// long sentence) the language and ?simd=0. Its own module, so app.js stays about the
// translator; it reads the page (the text box, <html lang>) rather than app.js's state, and
// also serves compare.html, which links to why.html.
import { compareLink } from './params.js';
import { COMPARE_STRINGS } from '../ui/compare-strings.js';

const link = document.querySelector('[data-role="compare-link"]');
const why = document.querySelector('[data-role="why-link"]');
const input = document.querySelector('[data-role="source-input"]');
const simd = new URLSearchParams(location.search).get('simd') === '0' ? false : 'auto';

function update() {
  const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';
  if (link) {
    link.textContent = COMPARE_STRINGS[lang].compareLink;
    link.href = compareLink(location.href, { text: input?.value ?? '', simd, lang });
  }
  if (why) {
    const url = new URL('why.html', location.href);
    if (simd === false) url.searchParams.set('simd', '0');
    if (lang === 'zh') url.searchParams.set('lang', 'zh');
    why.href = url.href;
  }
}

if (link || why) {
  update();
  input?.addEventListener('input', update);
  // app.js fills the box from the URL or the session, and switches the language, after this
  // module ran: follow both, and refresh once more as a link is used.
  new MutationObserver(update).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  for (const a of [link, why].filter(Boolean)) for (const ev of ['focus', 'pointerdown', 'click']) a.addEventListener(ev, update);
  queueMicrotask(update);
}
