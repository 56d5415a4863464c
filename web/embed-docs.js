// embed-docs.html: a copy button on each snippet, and the one-line iframe resizer the page
// documents (here as a module, since this page's CSP allows no inline script).

addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'attention-translator:height' || typeof e.data.height !== 'number') return;
  for (const f of document.getElementsByTagName('iframe')) {
    if (f.contentWindow === e.source) f.style.height = `${Math.ceil(e.data.height)}px`;
  }
});

for (const pre of document.querySelectorAll('pre')) {
  const code = pre.querySelector('code');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission: select the snippet for copying by hand.
      getSelection().selectAllChildren(code);
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  pre.append(button);
}
