// The harness of transformer-views.html: app/transformer.js's TransformerParts and a matrix,
// as index.html wires them, on the reference's recorded numbers for one sentence. The
// encoder panel asks `client.selfAttention(text)`; here that answers with the recorded
// encoder self-attention of the same sentence (the engine's worker does it on the page).
import { TransformerParts } from '/app/transformer.js';
import { AttentionMatrix } from '/ui/matrix.js';
import { STRINGS } from '/ui/strings.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const q = new URLSearchParams(location.search);
const lang = q.get('lang') === 'zh' ? 'zh' : 'en';
document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';

const fixture = await (await fetch('/fixtures/tiny-transformer-f32.json')).json();
const item = fixture.cases.find((c) => c.force?.steps?.length > 3);
const { force } = item;
const columns = [...item.src_tokens, '</s>'];
// The recorded steps in the shape web/lib's align() gives them (cross with its sizes).
const steps = force.steps.map((st, i) => ({
  index: i,
  word: force.tgt_tokens[i],
  e: st.e,
  alpha: st.alpha,
  cross: { layers: st.cross.alpha.length, heads: st.cross.alpha[0].length, alpha: st.cross.alpha, e: st.cross.e },
}));
const L = steps[0].cross.layers;
const H = steps[0].cross.heads;
const self = { tokens: columns, layers: L, heads: item.encoder_self_attention[0].length,
  weights: item.encoder_self_attention, scores: item.encoder_self_attention, method: 'recorded' };

const matrix = new AttentionMatrix($('matrix-root'), { strings: STRINGS[lang] });
// As app.js's render(): the rows for the pick, and the grid redrawn at the word on show.
const word = Number(q.get('word') ?? 0);
const draw = () => {
  matrix.reset(columns);
  matrix.setRows(steps.filter((st) => st.word !== '</s>').map((st) => ({ word: st.word, weights: parts.row(st) })));
  parts.preview(steps[word]);
};
const want = q.has('layer') ? { layer: Number(q.get('layer')) - 1, head: q.get('head') === 'avg' ? 'avg' : Number(q.get('head')) - 1 } : null;
const parts = new TransformerParts($('heads-root'), $('encoder-root'), { lang, want, onPick: draw });
parts.setInfo({ arch: 'transformer', decLayers: L, heads: H, encLayers: self.layers, dModel: 12, ffn: 24 });
draw();
await parts.showEncoder({ selfAttention: async () => self }, item.text);
window.fixture = { text: item.text, columns, steps, self };
window.parts = parts; // the tests switch its language as the page's button does
document.body.dataset.ready = 'true';
