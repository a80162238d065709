// "Copy" beside the video page's share and embed codes. The buttons are hidden in the HTML because
// without this script they could do nothing (the text stays selectable); here they are shown, and a
// press copies the field's text and says so to screen readers through the page's status line.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const status = document.getElementById('copy-status');
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied';
      if (status) status.textContent = `${field.labels?.[0]?.textContent ?? 'The code'} is copied.`;
    } catch {
      // Clipboard refused (an insecure origin, a denied permission): select the text for Ctrl+C instead.
      field.focus();
      field.select();
      if (status) status.textContent = 'Copying is not allowed here: the text is selected, press Ctrl+C or ⌘C.';
    }
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 2000);
  });
}
