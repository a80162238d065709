// Settings: the Copy button beside a secret shown once (a new API key, a webhook signing secret).
// Without script the secret is still in a read-only field, selected by a click, and the button stays hidden.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById('copy-status');
  if (!(field instanceof HTMLInputElement)) continue;
  button.hidden = false;
  field.addEventListener('focus', () => field.select());
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied';
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      field.select();
      if (status) status.textContent = 'Your browser did not allow copying: the secret is selected, press Ctrl+C or ⌘C.';
    }
  });
}
