// Which story the comparison tells about its two models, from their info() (null while one is
// loading), so that the page's title and tagline (compare.js) and the view's "What you are
// seeing" (compare-view.js) agree:
//   'transformer'  a side is a Transformer (transformer-strings.js's comparePage, compareExplain);
//   'guidance'     two RNNs with the same score whose attention learned differently, one by
//                  translation alone and one with an aligner's hint (en-fr beside en-fr-guided:
//                  compare-strings.js's guidancePage, explainGuidance);
//   'rnn'          else: the page's first story, two RNNs that differ in their score.

import { isTransformer } from './heads.js';

export function compareStory([a, b]) {
  if (isTransformer(a) || isTransformer(b)) return 'transformer';
  const sameScore = a && b && a.scoring === b.scoring && a.scoring !== 'none';
  return sameScore && a.attentionGuidance !== b.attentionGuidance ? 'guidance' : 'rnn';
}
