// A paragraph on index.html: text of more than one sentence is translated sentence by
// sentence. The core cuts it (the worker's splitSentences(), the tokenizer's own sentence
// ends, not a regex here); a row of sentence tabs (ui/sentence-tabs.js) picks the sentence
// whose matrix, lines and step panel the page shows, and that sentence decodes word by word
// like any other. By default even under the model's limit (info().maxSrcLen tokens): the model
// was trained on sentences, and two of them decoded as one sequence came out merged ("elle
// travaille à l'école du samedi, de ces jours…"). "As one sequence" (the whole=1 checkbox)
// stays a choice under the limit, since it shows attention over a long input; over the limit
// the text is cut whatever the choice, and the note says why.
//
// The whole translation, every sentence joined, is asked for in one batch message once the
// first sentence on show has decoded: not before, so that its first word is not delayed and
// its time per word is its own; not one by one as the user visits them, so that the whole
// text is there to read at once (greedy decoding runs the sentences as one batch, about
// 10 ms a sentence here). It is the engine's translateBatch(), which gives each sentence
// exactly what decoding it alone gives.
//
// The DOM is the page's [data-role="paragraph"] block; this module fills it.

import { h } from '../ui/dom.js';
import { SentenceTabs } from '../ui/sentence-tabs.js';

export class Paragraph {
  #root;
  #S;
  #tabs;
  #el = {};
  #asked = 0; // the open() whose answer may still be used
  #choice; // the "as one sequence" checkbox
  #state = null; // {text, beam, sentences, tokens, max, results (null until the batch), batch (asked)}

  // root: the empty [data-role="paragraph"] element. panel: what the tabs control (the
  // sentence's result). onSelect(k): the user picked sentence k (from 0). choice: the "as one
  // sequence" checkbox, ticked when `whole`; onChoice() once the user changes it.
  constructor(root, { strings, panel, onSelect, choice, whole = false, onChoice }) {
    this.#root = root;
    this.#S = strings;
    this.#choice = choice;
    choice.checked = whole;
    choice.addEventListener('change', () => onChoice());
    const e = this.#el;
    e.note = h('p', { class: 'paragraph-note', 'data-role': 'paragraph-note' });
    e.label = h('span', { class: 'paragraph-label' });
    e.output = h('span', { 'data-role': 'paragraph-output' });
    e.tabsLabel = h('span', { class: 'paragraph-label', id: 'sentence-tabs-label' });
    e.tabs = h('div', { 'data-role': 'sentence-tabs' });
    root.replaceChildren(e.note, h('p', { class: 'paragraph-output' }, e.label, ' ', e.output),
      h('div', { class: 'paragraph-tabs' }, e.tabsLabel, e.tabs));
    root.hidden = true;
    this.#tabs = new SentenceTabs(e.tabs, { strings, panel, labelledBy: 'sentence-tabs-label', onSelect: (k) => {
      this.#renderOutput();
      onSelect(k);
    } });
    this.setStrings(strings);
  }

  // True while the page shows one sentence of a paragraph.
  get active() {
    return this.#state !== null;
  }

  // The whole text, the sentence on show (from 0) and its text.
  get text() {
    return this.#state?.text ?? '';
  }

  get selected() {
    return this.#state ? this.#tabs.selected : -1;
  }

  get sentence() {
    return this.#state ? this.#tabs.sentences[this.#tabs.selected] : '';
  }

  get beam() {
    return this.#state?.beam ?? 1;
  }

  // True when the user asked for text of several sentences as one sequence (whole=1).
  get whole() {
    return this.#choice.checked;
  }

  // A new text to translate: -> the text to decode (the whole text, or its sentence number
  // `sentence`, from 1, else the first; the same text and beam again keep the sentence on
  // show), or null when a newer call has overtaken this one. The whole text when it is one
  // sentence, or when the choice says so and the model can read it at once.
  async open(client, text, { beam, maxSrcLen, sentence = null }) {
    const mine = ++this.#asked;
    let split = null;
    try {
      split = await client.sentences(text);
    } catch {
      // Whatever is wrong with the text, translating it says so in the error box.
    }
    if (mine !== this.#asked) return null;
    if (!split || split.sentences.length < 2 || (this.whole && split.tokens <= maxSrcLen)) {
      this.close();
      return text;
    }
    const old = this.#state;
    const keep = old && old.text === text && old.beam === beam ? this.#tabs.selected : 0;
    this.#state = { text, beam, sentences: split.sentences, tokens: split.tokens, max: maxSrcLen, results: null, batch: false };
    this.#tabs.set(split.sentences, sentence !== null ? sentence - 1 : keep);
    this.#root.hidden = false;
    this.#root.dataset.state = 'translating';
    this.#render();
    return this.sentence;
  }

  close() {
    this.#state = null;
    this.#tabs.set([]);
    this.#root.hidden = true;
    delete this.#root.dataset.state;
  }

  // The sentence on show has decoded (or failed): translate the whole paragraph, once.
  async fill(client) {
    const st = this.#state;
    if (!st || st.batch) return;
    st.batch = true;
    let results;
    try {
      results = await client.translateBatch(st.sentences, { beam: st.beam });
    } catch (e) {
      results = st.sentences.map(() => ({ error: e.message }));
    }
    if (this.#state !== st) return;
    st.results = results;
    results.forEach((r, k) => this.#tabs.setFailed(k, r.error !== undefined));
    this.#root.dataset.state = 'done';
    this.#renderOutput();
  }

  setStrings(strings) {
    this.#S = strings;
    this.#tabs.setStrings(strings);
    this.#el.label.textContent = strings.paragraphTranslation;
    this.#el.tabsLabel.textContent = strings.sentenceTabs;
    this.#render();
  }

  #render() {
    const st = this.#state;
    const S = this.#S;
    const n = st?.sentences.length;
    this.#el.note.textContent = !st ? '' : st.tokens > st.max ? S.paragraphNote(st.tokens, st.max, n) : S.paragraphSplitNote(n);
    this.#renderOutput();
  }

  // Each sentence's translation, the one on show marked; '…' until the batch is back.
  #renderOutput() {
    const st = this.#state;
    const S = this.#S;
    this.#el.output.replaceChildren(...(st?.sentences ?? []).flatMap((_, k) => {
      const r = st.results?.[k];
      const failed = r?.error !== undefined;
      const text = !r ? '…' : failed ? S.sentenceFailed(k + 1) : r.text;
      const cls = ['paragraph-sentence', k === this.#tabs.selected ? 'is-selected' : '', failed ? 'is-failed' : ''];
      // Joined as the target language writes: Chinese sentences with no space between them.
      // S.targetTag and targetLang come from ui/target-strings.js (French when not marked).
      const gap = k && S.targetLang !== 'zh' ? ' ' : '';
      return [gap, h('span', { class: cls.join(' ').trim(), 'data-sentence': k, lang: r && !failed ? S.targetTag ?? 'fr' : null, text })];
    }));
  }
}
