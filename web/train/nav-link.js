// The link to train.html in the other pages' navigation (index, why, compare, embed-docs): its
// words and its ?lang= follow the page's language. The pages switch language in place
// (app/i18n.js sets <html lang>), each from its own string table, so this module watches that
// attribute instead of asking every page's table for one more key.

import { TRAIN_LINK } from './strings.js';

function update(link) {
  const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';
  link.textContent = TRAIN_LINK[lang];
  const url = new URL('train.html', location.href);
  if (lang === 'zh') url.searchParams.set('lang', 'zh');
  link.href = url.pathname.split('/').pop() + url.search; // relative, as the pages' other links
}

const links = [...document.querySelectorAll('a[data-role="train-link"]')];
const all = () => links.forEach(update);
all();
new MutationObserver(all).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
