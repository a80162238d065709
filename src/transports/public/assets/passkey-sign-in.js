/*
 * /sign-in's passkey sign-in (GET /passkey-sign-in.js, after @simplewebauthn/browser's bundle, which
 * defines window.SimpleWebAuthnBrowser). Shows "Use a passkey" where the browser can use
 * passkeys; the button asks the server for a challenge (POST /sign-in/passkey/options), lets the
 * browser and authenticator sign it, sends the result (POST /sign-in/passkey) and goes where the
 * answer says. Where the browser offers passkeys in the Email field's suggestions (conditional
 * mediation), that is started too, and a button press takes over from it. Without this script the
 * password form works as before. Plain browser JavaScript, no build step.
 */
(() => {
  const webauthn = window.SimpleWebAuthnBrowser;
  const section = document.getElementById('passkey-sign-in');
  if (!section || !webauthn?.browserSupportsWebAuthn()) return;
  const button = document.getElementById('passkey-button');
  const message = document.getElementById('passkey-message');
  const next = document.querySelector('form[action="/sign-in"] input[name="next"]');
  const label = button.textContent;
  section.hidden = false;

  function say(text) {
    message.textContent = '';
    if (!text) return;
    const line = document.createElement('p');
    line.className = 'alert';
    line.textContent = text;
    message.append(line);
  }

  /** A JSON POST to our own origin; the server's error message when it refuses. */
  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
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

  async function signIn(useBrowserAutofill) {
    const { options } = await post('/sign-in/passkey/options', {});
    const response = await webauthn.startAuthentication({ optionsJSON: options, useBrowserAutofill });
    const answer = await post('/sign-in/passkey', { response, next: next ? next.value : undefined });
    window.location.assign(answer.redirect_to);
  }

  /** What to tell the person, or nothing when the ceremony was only replaced by another. */
  function explain(error) {
    if (error.fromServer) return error.message;
    if (error.code === 'ERROR_CEREMONY_ABORTED' || error.name === 'AbortError') return '';
    if (error.name === 'NotAllowedError')
      return 'The passkey sign-in was cancelled or timed out. Try again, or sign in with your password.';
    return 'This browser could not use a passkey here. Sign in with your email and password instead.';
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    button.textContent = 'Waiting for your passkey…';
    say('');
    try {
      await signIn(false);
    } catch (error) {
      say(explain(error));
      button.disabled = false;
      button.textContent = label;
    }
  });

  // Passkeys among the Email field's suggestions, where the browser offers that.
  webauthn
    .browserSupportsWebAuthnAutofill()
    .then((supported) => (supported ? signIn(true) : undefined))
    .catch((error) => {
      if (error.fromServer) say(error.message);
    });
})();
