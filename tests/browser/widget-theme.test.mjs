// The widget's theme attribute (light, dark, auto; web/widget/theme.js) and embed.html's theme=
// parameter, in real Chromium with an emulated prefers-color-scheme: which design each value
// gives, read as computed colours (the card, the text, the matrix's cells and legend, the
// focus ring), live switches, and axe-core's colour contrast on the dark widget and frame.
// Host page: tests/browser/pages/theme.html, a course page that follows the reader's scheme.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { artifact, axeViolations, sharedBrowser } from './helpers.mjs';

const T = { timeout: 180_000 };
const browser = sharedBrowser();

// WCAG relative luminance of a computed colour, 'rgb(r, g, b)' or 'rgba(r, g, b, a)'.
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

// Dark: a near-black card under light text; light: the reverse. Judged by luminance, not by
// exact colours, so that a retuned palette still passes and an inverted one does not.
function assertLook(look, theme, what) {
  const msg = `${what}: ${JSON.stringify(look)}`;
  assert.equal(look.theme, theme, msg);
  if (theme === 'dark') {
    assert.ok(luminance(look.bg) < 0.05 && luminance(look.fg) > 0.6, msg);
  } else {
    assert.ok(luminance(look.bg) > 0.85 && luminance(look.fg) < 0.05, msg);
  }
  assert.ok(contrast(look.bg, look.fg) >= 7, msg);
}

// Every widget on the page (or in the frame) decoded or failed, playback stopped.
function settled(target) {
  return target.waitForFunction(() => [...document.querySelectorAll('attention-translator')].every((el) =>
    (el.state === 'done' || el.state === 'error') && el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false'),
  null, { timeout: 150_000 });
}

// id -> {theme (data-theme, as drawn), bg, fg} of the widget's card.
function looks(target) {
  return target.evaluate(() => Object.fromEntries([...document.querySelectorAll('attention-translator')].map((el) => {
    const w = el.shadowRoot.querySelector('[data-role="widget"]');
    const cs = getComputedStyle(w);
    return [el.id || 'frame', { theme: w.dataset.theme, bg: cs.backgroundColor, fg: cs.color }];
  })));
}

async function themePage(colorScheme) {
  const page = await browser.newPage({ colorScheme, viewport: { width: 1100, height: 4000 } });
  page.warnings = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') page.warnings.push(m.text());
  });
  await page.goto(`${browser.url}test-pages/theme.html`);
  await settled(page);
  return page;
}

test('under a dark prefers-color-scheme: auto and a bad value are dark, theme="light" stays light', T, async () => {
  const page = await themePage('dark');
  const l = await looks(page);
  assertLook(l.auto, 'dark', 'auto');
  assertLook(l.bad, 'dark', 'a bad value reads as auto');
  assertLook(l.broken, 'dark', 'a widget showing an error');
  assertLook(l.dark, 'dark', 'theme=" Dark "');
  assertLook(l.light, 'light', 'theme="light" over a dark scheme');
  // ui.css's own dark block (the page's) must not reach a light widget's surfaces either: the
  // Transformer's selects draw on --bl-bg.
  assert.equal(await page.$eval('#light', (el) => getComputedStyle(el.shadowRoot.querySelector('[data-role="widget"]'))
    .getPropertyValue('--bl-bg').trim()), '#f7f8fb');
  // The bad value is named for the author, once, as text: nothing of it became markup.
  assert.equal(page.warnings.filter((w) => /theme=.*purple.*auto is used/.test(w)).length, 1, page.warnings.join('\n'));
  assert.equal(await page.$eval('#bad', (el) => el.shadowRoot.querySelector('#injected') ?? document.querySelector('#injected')), null);

  // The dark figure's parts: the error box, the buttons, the step panel and the focus ring
  // are dark surfaces with light text, the accent button and focus ring stand off the card.
  const parts = await page.evaluate(() => {
    const r = (id) => document.getElementById(id).shadowRoot;
    const cs = (id, sel) => getComputedStyle(r(id).querySelector(sel));
    const card = cs('auto', '[data-role="widget"]').backgroundColor;
    const play = r('auto').querySelector('[data-role="play"]');
    play.focus({ focusVisible: true });
    const ring = getComputedStyle(play).outlineColor;
    const ringStyle = getComputedStyle(play).outlineStyle;
    return {
      card,
      ring,
      ringStyle,
      error: { bg: cs('broken', '[data-role="error"]').backgroundColor, fg: cs('broken', '[data-role="error"]').color },
      button: { bg: cs('auto', '[data-role="play"]').backgroundColor, fg: cs('auto', '[data-role="play"]').color },
      go: { bg: cs('auto', '[data-role="translate"]').backgroundColor, fg: cs('auto', '[data-role="translate"]').color },
      input: { bg: cs('auto', '[data-role="source-input"]').backgroundColor, fg: cs('auto', '[data-role="source-input"]').color },
      track: cs('auto', '.bl-bar-track').backgroundColor,
      scheme: cs('auto', '[data-role="widget"]').colorScheme,
    };
  });
  for (const name of ['error', 'button', 'input']) {
    assert.ok(luminance(parts[name].bg) < 0.05 && contrast(parts[name].bg, parts[name].fg) >= 7, `${name}: ${JSON.stringify(parts)}`);
  }
  assert.ok(contrast(parts.go.bg, parts.go.fg) >= 4.5 && contrast(parts.go.bg, parts.card) >= 3, JSON.stringify(parts.go));
  assert.ok(luminance(parts.track) < 0.05, `the bars' track is dark: ${parts.track}`);
  assert.equal(parts.ringStyle, 'solid');
  assert.ok(contrast(parts.ring, parts.card) >= 3, `focus ring ${parts.ring} on ${parts.card}`);
  assert.equal(parts.scheme, 'dark', 'native controls (slider, selects, scrollbars) drawn dark');

  // The matrix still reads "more weight, brighter cell", and the legend says the same: its
  // 0 end is its dark end. On a dark card the empty end of the scale recedes into it.
  const m = await page.$eval('#auto', (el) => {
    const r = el.shadowRoot;
    const cells = [...r.querySelectorAll('[data-role="matrix"] [data-weight]')]
      .map((c) => ({ w: Number(c.dataset.weight), bg: getComputedStyle(c).backgroundColor }));
    const legend = r.querySelector('.legend');
    return {
      cells,
      ends: [...legend.children].map((x) => x.textContent),
      gradient: getComputedStyle(r.querySelector('.legend-bar')).backgroundImage,
    };
  });
  assert.ok(m.cells.length >= 6, JSON.stringify(m.cells));
  const byWeight = m.cells.slice().sort((a, b) => a.w - b.w);
  for (let i = 1; i < byWeight.length; i++) {
    assert.ok(luminance(byWeight[i].bg) >= luminance(byWeight[i - 1].bg) - 1e-3, `brighter with weight: ${JSON.stringify(byWeight)}`);
  }
  const top = byWeight.at(-1);
  assert.ok(top.w > 0.5 && contrast(top.bg, parts.card) > 5, `the largest weight stands out: ${JSON.stringify(top)}`);
  const stops = m.gradient.match(/rgb\([^)]*\)/g);
  assert.deepEqual(m.ends.slice(0, 3).map((x, i) => (i === 1 ? '' : x)), ['0', '', '1']);
  assert.ok(luminance(stops[0]) < 0.05 && luminance(stops.at(-1)) > 0.6, `legend from dark (0) to bright (1): ${m.gradient}`);
  assert.ok(contrast(stops[0], byWeight[0].bg) < 1.3, 'the legend\'s 0 is the colour of the least-weight cell');

  await page.screenshot({ path: artifact('widget-dark.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('under a light prefers-color-scheme: auto and a bad value are light, theme="dark" is dark', T, async () => {
  const page = await themePage('light');
  const l = await looks(page);
  assertLook(l.auto, 'light', 'auto');
  assertLook(l.bad, 'light', 'a bad value reads as auto');
  assertLook(l.light, 'light', 'theme="light"');
  assertLook(l.dark, 'dark', 'theme=" Dark " over a light scheme');
  assertLook(l.pair, 'dark', 'mode="compare" theme="dark"');
  // The light design is the one the widget always had.
  assert.deepEqual([l.auto.bg, l.auto.fg], ['rgb(255, 255, 255)', 'rgb(26, 29, 36)']);
  // The host page's colour hooks: --attention-bg is the light theme's, --attention-dark-bg the
  // dark one's (a light card under the dark theme's light text would be unreadable).
  const card = (id) => page.$eval(`#${id}`, (el) => getComputedStyle(el.shadowRoot.querySelector('[data-role="widget"]')).backgroundColor);
  await page.evaluate(() => {
    for (const id of ['auto', 'dark']) document.getElementById(id).style.setProperty('--attention-bg', '#fffdf7');
  });
  assert.deepEqual([await card('auto'), await card('dark')], ['rgb(255, 253, 247)', l.dark.bg]);
  await page.$eval('#dark', (el) => el.style.setProperty('--attention-dark-bg', '#202020'));
  assert.equal(await card('dark'), 'rgb(32, 32, 32)');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('changing the attribute, or the system setting, switches the theme live', T, async () => {
  const page = await themePage('light');
  const look = async (id) => (await looks(page))[id];
  await page.$eval('#auto', (el) => el.setAttribute('theme', 'dark'));
  assertLook(await look('auto'), 'dark', 'set to dark');
  await page.$eval('#auto', (el) => el.setAttribute('theme', 'nonsense'));
  assertLook(await look('auto'), 'light', 'set to a bad value: auto, under a light scheme');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.getElementById('auto').shadowRoot.querySelector('[data-role="widget"]').dataset.theme === 'dark');
  assertLook(await look('auto'), 'dark', 'auto, after the system turned dark');
  assertLook(await look('light'), 'light', 'theme="light", after the system turned dark');
  await page.$eval('#auto', (el) => el.setAttribute('theme', 'light'));
  assertLook(await look('auto'), 'light', 'set to light under a dark scheme');
  await page.$eval('#auto', (el) => el.removeAttribute('theme'));
  assertLook(await look('auto'), 'dark', 'attribute removed: auto');
  // A widget moved to another place in the page keeps following the system.
  await page.evaluate(() => document.querySelector('main').prepend(document.getElementById('bad')));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.getElementById('bad').shadowRoot.querySelector('[data-role="widget"]').dataset.theme === 'light');
  assertLook(await look('auto'), 'light', 'auto, after the system turned light again');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('axe: no violations on the dark widgets (single figure, panel, notes, error, compare mode)', T, async () => {
  const page = await themePage('dark');
  const l = await looks(page);
  for (const id of ['auto', 'dark', 'bad', 'broken', 'pair']) assertLook(l[id], 'dark', id); // what axe is to judge
  await page.$eval('#auto', (el) => el.shadowRoot.querySelector('[data-role="play"]').focus());
  assert.deepEqual(await axeViolations(page), []);
  await page.close();
});

// Before the tests that open embed.html itself: the site's service worker, which embed.html
// registers, would then serve this host page too, and log its favicon's 404 as an error.
test('embed.html in a frame: the parent sets the theme with a set message', T, async () => {
  const page = await browser.newPage({ colorScheme: 'dark' });
  await page.goto(`${browser.url}test-pages/iframe.html`);
  await page.waitForFunction(() => document.getElementById('f').contentDocument?.querySelector('attention-translator'), null, { timeout: 60_000 });
  const frame = page.frame({ url: /embed\.html/ });
  await settled(frame);
  assert.equal((await looks(frame)).frame.theme, 'dark');
  await page.evaluate(() => document.getElementById('f').contentWindow.postMessage(
    { type: 'attention-translator:set', attributes: { theme: 'light' } }, '*'));
  await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assertLook((await looks(frame)).frame, 'light', 'set by the parent');
  assert.deepEqual(page.problems, []);
  await page.close();
});

async function embed(query, colorScheme) {
  const page = await browser.newPage({ colorScheme });
  await page.goto(`${browser.url}embed.html?model=en-fr&text=${encodeURIComponent('The black cat is sleeping.')}&panel=1&step=2&${query}`);
  await settled(page);
  const l = (await looks(page)).frame;
  const scheme = await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
  return { page, l, scheme };
}

test('embed.html: theme=dark under a light scheme, auto and a bad value under a dark one; axe passes', T, async () => {
  {
    const { page, l, scheme } = await embed('theme=dark', 'light');
    assertLook(l, 'dark', 'embed.html?theme=dark, light scheme');
    assert.equal(scheme, 'dark', 'the frame\'s own color-scheme');
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  for (const query of ['', 'theme=%3Cscript%3Ex', 'theme=auto']) {
    const { page, l, scheme } = await embed(query, 'dark');
    assertLook(l, 'dark', `embed.html?${query}, dark scheme`);
    assert.equal(scheme, 'light dark');
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  {
    const { page, l, scheme } = await embed('theme=light', 'dark');
    assertLook(l, 'light', 'embed.html?theme=light, dark scheme');
    assert.equal(scheme, 'light');
    await page.close();
  }
  const { page, l } = await embed('controls=full', 'dark');
  assertLook(l, 'dark', 'embed.html?controls=full, dark scheme');
  assert.deepEqual(page.problems, []);
  // heading-order is left out: with panel=1 the frame's h1 is followed by the step panel's h3
  // whatever the theme (it is so on the light frame too), and not a matter of colour.
  assert.deepEqual((await axeViolations(page)).filter((v) => !v.startsWith('heading-order:')), []);
  await page.screenshot({ path: artifact('embed-dark.png'), fullPage: true });
  await page.close(); // (axe's inline styles, refused by the frame's CSP, are logged: not the frame's)
});
