// "What you can learn from editing attention": a short text and the recorded measurement
// (web/data/attention-edits.json, written by scripts/attention-edits --json): per model and
// edit, how often moving a gold-linked step's attention changed the model's first choice, how
// often the human word came first before and after, and how much log-probability the human
// word gained or lost. The file is data from a script, read defensively: anything that is not
// the expected shape is left out, every value only ever becomes text, and where the file is
// absent (or lists no model) the section says that nothing is recorded yet. Every number is
// labelled as recorded, with the date and command the file gives.
//
//   {"recorded": "<date: command>", "models": [{"model": "en-fr", "rows": [{"edit":
//     "attention" | "every head" | "L1H2", "what": "gold" | "other" | "off", "steps": 1175,
//     "changed": 5.6, "human_top1_own": 84.9, "human_top1_edited": 86.2 (percentages, as the
//     script rounds them), "dlogp_mean": 0.105}]}, {"model": "en-fr-noattn", "reason": "..."}]}
//
// Automation hooks (stable): data-role="edit-findings" (data-state: loading, missing, bad,
// recorded), data-role="findings-table" (and findings-heads, a Transformer's heads alone),
// data-role="findings-recorded", data-role="findings-missing".

import { LINEAGE_KINDS } from '../lib/catalogue.js';
import { h } from './dom.js';
import { FINDINGS_STRINGS } from './findings-strings.js';
import { TRANSFORMER_STRINGS } from './transformer-strings.js';

const MAX_MODELS = 20;
const MAX_ROWS = 200;
const PER_HEAD = /^L\d+H\d+$/;

export class EditFindings {
  #root;
  #lang = 'en';
  #data; // undefined: loading; false: unreadable; else readFindings()'s

  constructor(root, { lang = 'en', url = new URL('../data/attention-edits.json', import.meta.url) } = {}) {
    this.#root = root;
    this.#lang = lang;
    root.dataset.role = 'edit-findings';
    this.#render();
    this.#load(url);
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    this.#render();
  }

  async #load(url) {
    try {
      const r = await fetch(url);
      if (r.status === 404) this.#data = { recorded: null, models: [] };
      else this.#data = r.ok ? readFindings(await r.json()) : false;
    } catch {
      this.#data = false;
    }
    this.#render();
  }

  #render() {
    const F = FINDINGS_STRINGS[this.#lang];
    const T = TRANSFORMER_STRINGS[this.#lang];
    const d = this.#data;
    const state = d === undefined ? 'loading' : d === false ? 'bad' : d.models.length === 0 ? 'missing' : 'recorded';
    this.#root.dataset.state = state;
    const parts = [h('h2', { id: 'findings-title', text: F.title }),
      ...F.text.map((p) => h('p', {}, p.map((x) => (typeof x === 'string' ? x : h('cite', { text: x.cite })))))];
    if (state === 'missing' || state === 'bad') {
      parts.push(h('p', { class: 'bl-findings-note', 'data-role': 'findings-missing', text: state === 'bad' ? F.bad : F.missing }));
    }
    if (state === 'recorded') {
      parts.push(h('p', { class: 'bl-findings-note', 'data-role': 'findings-recorded' }, F.recorded(h('code', { text: d.recorded || '—' }))));
      const lessons = d.models.map((m) => lesson(m, F)).filter(Boolean);
      if (lessons.length) parts.push(h('ul', { class: 'bl-findings-lessons', 'data-role': 'findings-lessons' }, lessons.map((text) => h('li', { text }))));
      parts.push(table(d.models.map((m) => ({ ...m, rows: m.rows.filter((r) => !PER_HEAD.test(r.edit)) })), F, T, 'findings-table', F.caption));
      for (const m of d.models) {
        const heads = m.rows.filter((r) => PER_HEAD.test(r.edit));
        if (heads.length) {
          parts.push(h('details', { class: 'bl-findings-heads' }, h('summary', { text: F.perHead(m.name, heads.length) }),
            table([{ ...m, rows: heads, reason: null }], F, T, 'findings-heads', F.perHead(m.name, heads.length))));
        }
      }
    }
    this.#root.replaceChildren(...parts);
  }
}

// The file's contents, kept to what the tables show: strings for names, finite numbers or null.
export function readFindings(json) {
  const text = (v) => (typeof v === 'string' ? v.slice(0, 300) : null);
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  if (!json || typeof json !== 'object' || !Array.isArray(json.models)) return { recorded: text(json?.recorded), models: [] };
  const models = json.models.slice(0, MAX_MODELS).filter((m) => m && typeof m === 'object').map((m) => ({
    name: text(m.model) ?? text(m.label) ?? '—',
    reason: text(m.reason),
    rows: (Array.isArray(m.rows) ? m.rows : []).slice(0, MAX_ROWS).filter((r) => r && typeof r === 'object').map((r) => ({
      edit: text(r.edit) ?? '', what: text(r.what) ?? '—', steps: num(r.steps), changed: num(r.changed),
      own: num(r.human_top1_own), edited: num(r.human_top1_edited), dlogp: num(r.dlogp_mean),
    })),
  })).filter((m) => m.rows.length > 0 || m.reason);
  return { recorded: text(json.recorded), models };
}

// What one model's recorded rows say in a sentence: how often its first choice changed with
// the weight moved elsewhere, and to the gold word (its whole attention, or every head).
function lesson(m, F) {
  const at = (what) => m.rows.find((r) => !PER_HEAD.test(r.edit) && r.what === what && r.changed !== null);
  const [other, gold] = [at('other'), at('gold')];
  return other && gold ? F.lesson(m.name, `${other.changed.toFixed(1)}%`, `${gold.changed.toFixed(1)}%`) : null;
}

function table(models, F, T, role, caption) {
  const C = F.columns;
  const dash = '—';
  const pct = (v) => (v === null ? dash : `${v.toFixed(1)}%`);
  const signed = (v) => (v === null ? dash : `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(2)}`);
  const name = (m) => (Object.hasOwn(LINEAGE_KINDS, m.name) ? `${m.name} · ${T.kinds[LINEAGE_KINDS[m.name]]}` : m.name);
  const body = models.flatMap((m) => {
    if (!m.rows.length) {
      return m.reason ? [h('tr', {}, h('th', { scope: 'row', text: name(m) }),
        h('td', { colspan: '6', text: F.reasons[m.reason] ?? m.reason }))] : [];
    }
    return m.rows.map((r, i) => h('tr', {},
      i === 0 ? h('th', { scope: 'row', rowspan: String(m.rows.length), text: name(m) }) : null,
      h('td', { text: `${F.edit(r.edit)} → ${F.what[r.what] ?? r.what}` }),
      h('td', { class: 'num', text: r.steps === null ? dash : String(Math.round(r.steps)) }),
      h('td', { class: 'num', text: pct(r.changed) }),
      h('td', { class: 'num', text: r.own === null && r.edited === null ? dash : `${pct(r.own)} → ${pct(r.edited)}` }),
      h('td', { class: 'num', text: signed(r.dlogp) })));
  });
  // Scrolls sideways on a phone: focusable, so that keys can scroll it too.
  return h('div', { class: 'bl-findings-scroll', tabindex: '0', role: 'region', 'aria-label': caption }, h('table', { class: 'bl-findings', 'data-role': role },
    h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, [C.model, `${C.edit} → ${C.what}`, C.steps, C.changed, C.top1, C.dlogp].map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, body)));
}
