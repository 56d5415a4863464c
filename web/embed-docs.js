// embed-docs.html: fills the snippets with real addresses, so that a teacher can paste them as
// they are; a copy button on each snippet; and the one-line iframe resizer the page documents
// (here as a module, since this page's CSP allows no inline script).
//
// A snippet marks each address it holds with <span data-url="widget"> (the script, from this
// server or the CDN, as the reader chooses) or <span data-url="embed"> (the iframe route's page,
// which only a site serves). Only those spans' textContent is written, so nothing from the URL
// can become markup.

const status = document.getElementById('docs-status');
const say = (text) => {
  // Cleared first, and written a moment later, so the same words said twice are announced twice.
  status.textContent = '';
  setTimeout(() => (status.textContent = text), 50);
};

// ---- the snippets' addresses ---------------------------------------------------------------

// This module sits beside bahdanau-widget.js and embed.html (in web/, and at the top of the
// folder scripts/site writes), so its own URL locates them, even where a host serves this
// page under another name (Netlify's /embed-docs for /embed-docs.html).
const HERE = new URL(import.meta.url);
const SERVED = HERE.protocol === 'https:' || HERE.protocol === 'http:';
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(HERE.hostname) || HERE.hostname.endsWith('.localhost');

// An address as a snippet may carry it in any of its contexts: an HTML attribute in double
// quotes, a Python string, Markdown. The URL serializer already escapes " < > and spaces in a
// path; ' and & it leaves, so a folder such as "it's" would end a quoted Python string, or "&amp"
// read as an entity. Static servers decode %27 and %26 back to the same file. Credentials in
// the page's URL stay out of what gets pasted.
function pasteable(url) {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  return u.href.replace(/['&]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const source = document.getElementById('source');
const CDN_WIDGET = new URL('bahdanau-widget.js', source.dataset.cdn).href;
const SERVER = SERVED ? { widget: pasteable(new URL('bahdanau-widget.js', HERE)), embed: pasteable(new URL('embed.html', HERE)) } : null;

function fill(kind, url) {
  for (const span of document.querySelectorAll(`[data-url="${kind}"]`)) span.textContent = url;
}

function choose(from, announce) {
  fill('widget', from === 'server' ? SERVER.widget : CDN_WIDGET);
  if (announce) say(from === 'server' ? 'The script tags now load the widget from this server.' : 'The script tags now load the widget from the jsDelivr CDN.');
}

if (SERVER) {
  fill('embed', SERVER.embed);
  source.hidden = false;
  // On a machine's own address, students could reach the CDN, not this server.
  const start = LOOPBACK ? 'cdn' : 'server';
  for (const radio of source.querySelectorAll('input[name="source"]')) {
    radio.checked = radio.value === start;
    radio.addEventListener('change', () => radio.checked && choose(radio.value, true));
  }
  source.querySelector('[data-role="server-widget"]').textContent = SERVER.widget;
  choose(start, false);
  if (LOOPBACK) {
    const note = document.querySelector('[data-role="loopback"]');
    note.querySelector('[data-role="host"]').textContent = HERE.host;
    note.hidden = false;
  }
}

// ---- copy buttons --------------------------------------------------------------------------

// Where the clipboard API is refused (no permission, or a page that is not a secure context),
// the snippet is selected and copied the old way; where even that fails it stays selected, and
// the button says how to copy it by hand.
async function copy(code) {
  const text = code.textContent;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    getSelection().selectAllChildren(code);
    try {
      if (document.execCommand('copy')) return true;
    } catch {}
    return false;
  }
}

// A snippet's name, for the button's label: its own, or its section's heading.
function nameOf(pre) {
  if (pre.dataset.name) return pre.dataset.name;
  const heading = pre.closest('section')?.querySelector('h3, h2');
  return heading ? heading.textContent.trim() : 'snippet';
}

for (const pre of document.querySelectorAll('pre')) {
  const code = pre.querySelector('code');
  if (!code) continue;
  const name = nameOf(pre);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  // The label starts with the visible word (WCAG 2.5.3) and says which snippet.
  const label = (word) => button.setAttribute('aria-label', `${word}: ${name}`);
  label('Copy');
  let reset = 0;
  button.addEventListener('click', async () => {
    const ok = await copy(code);
    button.textContent = ok ? 'Copied' : 'Press Ctrl+C';
    button.dataset.state = ok ? 'copied' : 'selected';
    label(button.textContent);
    say(ok ? `Copied: ${name}.` : `Could not copy: ${name} is selected; press Ctrl+C (⌘C on a Mac) to copy it.`);
    clearTimeout(reset);
    reset = setTimeout(() => {
      button.textContent = 'Copy';
      label('Copy');
      delete button.dataset.state;
    }, 2500);
  });
  pre.append(button);
}

// ---- the iframe resizer the page documents -------------------------------------------------

addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'attention-translator:height' || typeof e.data.height !== 'number') return;
  for (const f of document.getElementsByTagName('iframe')) {
    if (f.contentWindow === e.source) f.style.height = `${Math.ceil(e.data.height)}px`;
  }
});
