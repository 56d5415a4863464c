// Puts one string table on the page's static text: elements marked data-i18n="key" get the
// text, data-i18n-label="key" the accessible name and its tooltip, data-i18n-aria="key" the
// accessible name alone. Looked up within the given root only.
import { LANG_TAGS } from '../ui/strings.js';

export function applyStrings(root, strings, lang) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const v = strings[el.dataset.i18n];
    if (typeof v === 'string') el.textContent = v;
  }
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    const v = strings[el.dataset.i18nLabel];
    if (typeof v === 'string') {
      el.setAttribute('aria-label', v);
      el.title = v;
    }
  }
  for (const el of root.querySelectorAll('[data-i18n-aria]')) {
    const v = strings[el.dataset.i18nAria];
    if (typeof v === 'string') el.setAttribute('aria-label', v);
  }
  const html = root.documentElement ?? root;
  html.setAttribute?.('lang', LANG_TAGS[lang] ?? 'en');
}

// The language toggle names the other language, in that language.
export function labelLangToggle(button, strings, lang) {
  button.textContent = strings.language;
  button.setAttribute('lang', lang === 'zh' ? LANG_TAGS.en : LANG_TAGS.zh);
  button.title = strings.languageLabel;
}
