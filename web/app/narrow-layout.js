// index.html in one column (a phone, a narrow window): the player in view for a shared link,
// and the step panel next to the matrix it explains.
//
// Below 1080px the page is one column: the header and the input card fill the first screen of
// a phone (the matrix starts near 1,600 px down on a 390x844 one), and the step panel came
// after the whole result card (export, beam hypotheses, encoder self-attention), so stepping
// through the words meant scrolling between the buttons and the explanation. Only there:
//  - the step panel's card moves under the matrix and lines views, inside the result card (the
//    same element, moved, so its state and listeners stay), and back beside it when the window
//    widens to two columns;
//  - a ?text= link scrolls the player to the top once, when its translation starts, so that
//    the matrix fills in on screen, and holds it there while the sentence decodes; not if the
//    reader has scrolled, tapped or typed meanwhile (or the browser restored a position),
//    which would fight them.

const ONE_COLUMN = '(max-width: 1079.98px)'; // app.css: two columns from 1080px

// doc: the page's document; reveal: the page was opened with ?text= (it translates at once).
export function narrowLayout(doc, { reveal }) {
  const win = doc.defaultView;
  const query = win.matchMedia(ONE_COLUMN);
  placeStepPanel(doc, query.matches);
  query.addEventListener('change', (e) => placeStepPanel(doc, e.matches));
  if (reveal) revealOnStart(doc, query);
}

function placeStepPanel(doc, narrow) {
  const card = doc.querySelector('.steps-card');
  const after = doc.querySelector('.result-card .view[data-view="lines"]');
  const workspace = doc.querySelector('.workspace');
  if (!card || !after || !workspace) return;
  if (narrow && card.previousElementSibling !== after) after.after(card);
  else if (!narrow && card.parentElement !== workspace) workspace.append(card);
  card.classList.toggle('is-inline', narrow);
}

function revealOnStart(doc, query) {
  const win = doc.defaultView;
  const app = doc.querySelector('[data-role="app"]');
  const player = doc.querySelector('.player');
  const paragraph = doc.querySelector('[data-role="paragraph"]');
  if (!app || !player) return;
  let touched = false;
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  const onTouch = () => {
    touched = true;
  };
  for (const type of events) win.addEventListener(type, onTouch, { capture: true, passive: true });
  const stop = () => {
    for (const type of events) win.removeEventListener(type, onTouch, { capture: true });
  };
  const observer = new MutationObserver(() => {
    if (app.dataset.state !== 'decoding' && app.dataset.state !== 'done') return;
    observer.disconnect();
    if (touched || win.scrollY > 0 || !query.matches || player.getBoundingClientRect().top < win.innerHeight * 0.5) {
      stop();
      return;
    }
    player.scrollIntoView({ block: 'start' });
    // Pinned there while the sentence decodes: the lines above it grow as it does (the
    // translation word by word, then "type your own French" and the whole paragraph's text),
    // which pushed the player 220 px down, half the matrix off screen. A smooth scroll cannot
    // follow that (its end is fixed when it starts), so the jump is immediate. The first
    // wheel, touch, key or click ends the pinning.
    const want = player.getBoundingClientRect().top;
    const until = performance.now() + 20_000;
    const hold = () => {
      const moved = player.getBoundingClientRect().top - want;
      if (!touched && Math.abs(moved) > 1) win.scrollBy(0, moved);
    };
    // After layout, before paint: the player does not show a frame out of place.
    const resized = new ResizeObserver(hold);
    resized.observe(app);
    const check = () => {
      const busy = app.dataset.state === 'decoding' || paragraph?.dataset.state === 'translating';
      if (!touched && busy && performance.now() < until) return win.requestAnimationFrame(check);
      hold();
      resized.disconnect();
      stop();
    };
    win.requestAnimationFrame(check);
  });
  observer.observe(app, { attributes: true, attributeFilter: ['data-state'] });
}
