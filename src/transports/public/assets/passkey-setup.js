/*
 * Adding a passkey on /app/account/passkeys (GET /passkey-setup.js, after @simplewebauthn/browser's
 * bundle). Shows the "Add a passkey" form where the browser can make passkeys; on submit it asks the
 * server for options (POST /app/account/passkeys/options), lets the browser and authenticator make
 * the credential, and sends it with the name typed (POST /app/account/passkeys), each request with
 * the page's CSRF token in X-CSRF-Token; then reloads the page, which lists the new passkey.
 * Renaming and removing are plain forms and need no script.
 */
(() => {
  const webauthn = window.SimpleWebAuthnBrowser;
  const form = document.getElementById('add-passkey');
  const note = document.getElementById('add-passkey-note');
  if (!form || !note) return;
  if (!webauthn?.browserSupportsWebAuthn()) {
    note.textContent = 'This browser cannot make passkeys. A current Chrome, Edge, Firefox or Safari can.';
    return;
  }
  const button = form.querySelector('button[type="submit"]');
  const name = form.querySelector('input[name="name"]');
  const message = document.getElementById('add-passkey-message');
  const csrf = form.dataset.csrf;
  const label = button.textContent;
  note.hidden = true;
  form.hidden = false;

  function say(text) {
    message.textContent = '';
    if (!text) return;
    const line = document.createElement('p');
    line.className = 'alert';
    line.textContent = text;
    message.append(line);
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(answer?.error?.message || 'Something went wrong on our side. Try again in a moment.');
      error.fromServer = true;
      throw error;
    }
    return answer;
  }

  function explain(error) {
    if (error.fromServer) return error.message;
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || error.name === 'InvalidStateError')
      return 'This device or password manager already holds a passkey for your account.';
    if (error.name === 'NotAllowedError' || error.name === 'AbortError') return 'Adding the passkey was cancelled or timed out. Try again.';
    return 'This browser could not make a passkey here. Try another browser or device.';
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    button.textContent = 'Waiting for your passkey…';
    say('');
    try {
      const { options } = await post('/app/account/passkeys/options', {});
      const response = await webauthn.startRegistration({ optionsJSON: options });
      const added = await post('/app/account/passkeys', { response, name: name.value });
      window.location.assign(`/app/account/passkeys?added=${encodeURIComponent(added.passkey_id)}`);
    } catch (error) {
      say(explain(error));
      button.disabled = false;
      button.textContent = label;
    }
  });
})();
