// The links to train.html ("Train it yourself") and learn.html ("Watch it learn") in the other
// pages' navigation (index, why, compare, train): their words and their ?lang=
// follow the page's language. The pages switch language in place (app/i18n.js sets <html
// lang>), each from its own string table, so this module watches that attribute instead of
// asking every page's table for two more keys.

import { LEARN_LINK } from '../learn/strings.js';
import { TRAIN_LINK } from './strings.js';

const PAGES = [
  { role: 'train-link', page: 'train.html', words: TRAIN_LINK },
  { role: 'learn-link', page: 'learn.html', words: LEARN_LINK },
];

function update(link, { page, words }) {
  const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';
  link.textContent = words[lang];
  const url = new URL(page, location.href);
  if (lang === 'zh') url.searchParams.set('lang', 'zh');
  link.href = url.pathname.split('/').pop() + url.search; // relative, as the pages' other links
}

const links = PAGES.flatMap((p) => [...document.querySelectorAll(`a[data-role="${p.role}"]`)].map((a) => [a, p]));
const all = () => links.forEach(([a, p]) => update(a, p));
all();
new MutationObserver(all).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
