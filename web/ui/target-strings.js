// A caption table for a model's own target language. strings.js (and edit-strings.js) were
// written for English->French, so they say "French" / 法语 wherever they mean "the translation's
// language". retarget() gives the same table with that language named instead, in either caption
// language, and marks the table with targetLang and targetTag for the modules that set lang=
// on the translation (paragraph.js, force.js).
//
// Decision: a rewrite of the one table, not a second copy of every caption per target: the
// captions stay written once, so a change to one cannot leave its Chinese-target twin behind.
// Function captions (templates) are rewritten on their result, with the caller's string
// arguments held out as placeholders first: a user's own text ("I speak French.") is never
// rewritten, only the caption's words around it.

import { PAIR_STRINGS, TARGET_TAGS } from './pair-strings.js';

// The rewrites per caption language, for a target other than French. A pair's name comes
// first so "English→French" becomes the pair's own name rather than two rewritten halves.
function rules(lang, target) {
  const P = PAIR_STRINGS[lang];
  const name = P.targets[target];
  if (lang === 'zh') {
    // 英法 is "English-French" as one word (英法翻译器); 英中 reads the same way for Chinese.
    return [[/英法/g, target === 'zh' ? '英中' : `英${name}`], [/法语/g, name]];
  }
  return [[/English→French/g, P.pairs[`en-${target}`] ?? `English→${name}`], [/\bFrench\b/g, name]];
}

// Captions whose words are wrong for Chinese beyond the language's name: its tokens are single
// characters (tokenizer spec 3), so the matrix's rows are characters, not words.
const ZH_TARGET = {
  en: {
    tableCaption: 'Attention weights (rows: Chinese characters; columns: English tokens)',
    corner: 'Chinese character \\ English token',
  },
  zh: {
    tableCaption: '注意力权重（行：中文字；列：英文词）',
    corner: '中文字 \\ 英文词',
  },
};

const HOLE = (k) => `\u0000${k}\u0000`;

function rewrite(text, list) {
  return list.reduce((t, [re, to]) => t.replace(re, to), text);
}

function rewriteValue(v, list) {
  if (typeof v === 'string') return rewrite(v, list);
  if (Array.isArray(v)) return v.map((x) => rewriteValue(x, list));
  if (typeof v === 'function') {
    return (...args) => {
      const held = args.map((a, k) => (typeof a === 'string' ? HOLE(k) : a));
      const out = v(...held);
      if (typeof out !== 'string') return v(...args); // not a text template: call it as it was
      return rewrite(out, list).replace(/\u0000(\d+)\u0000/g, (_, k) => args[Number(k)]);
    };
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewriteValue(x, list)]));
  return v;
}

// table: a caption table (strings.js's STRINGS[lang], edit-strings.js's ...); lang: the caption
// language ('en' | 'zh'); target: the model's target language ('fr', 'zh'; anything unknown
// reads as French, the table's own). -> a new table.
export function retarget(table, lang, target) {
  const tgt = Object.hasOwn(PAIR_STRINGS.en.targets, target) ? target : 'fr';
  const marks = { targetLang: tgt, targetTag: TARGET_TAGS[tgt] };
  if (tgt === 'fr') return { ...table, ...marks };
  const list = rules(lang === 'zh' ? 'zh' : 'en', tgt);
  const out = {};
  for (const [k, v] of Object.entries(table)) out[k] = rewriteValue(v, list);
  if (tgt === 'zh') for (const [k, v] of Object.entries(ZH_TARGET[lang === 'zh' ? 'zh' : 'en'])) if (k in table) out[k] = v;
  return { ...out, ...marks };
}
