// The library's script (dashboard/videos/): sends a chosen file to the catalog's one-time upload URL
// with its progress shown, lets a failed transfer be tried again with the same URL, and follows a
// new video's processing until it is ready. Also keeps the status of any element carrying
// data-status-url current (the library's processing rows, the processing page). Without it, the
// pages say what to do instead.
(() => {
  const POLL_MS = 2000;

  /** Polls a status.json until the video is ready or failed; `onChange` gets each answer. */
  function follow(url, onChange) {
    let last = '';
    const tick = async () => {
      let view;
      try {
        // A redirect means the session ended (to the sign-in page): stop following.
        const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', redirect: 'manual' });
        if (!response.ok) return;
        view = await response.json();
      } catch {
        setTimeout(tick, POLL_MS * 2);
        return;
      }
      if (view.status !== last) {
        last = view.status;
        onChange(view);
      }
      if (!view.done) setTimeout(tick, POLL_MS);
    };
    setTimeout(tick, POLL_MS);
  }

  function badge(view) {
    const span = document.createElement('span');
    span.className = `status ${view.status}`;
    span.textContent = view.status_words;
    return span;
  }

  function explain(view) {
    if (view.status === 'ready') return 'Ready to share.';
    if (view.status === 'failed') return `It could not be processed: ${view.failure_reason || 'no reason was given'}.`;
    if (view.status === 'waiting_upload') return 'Waiting for its file.';
    return 'Processing the file…';
  }

  // Rows and pages that show a video on its way.
  for (const element of document.querySelectorAll('[data-status-url]')) {
    follow(element.dataset.statusUrl, (view) => {
      if (element.dataset.follow === 'page') {
        const text = document.createElement('span');
        text.className = 'status-text';
        text.textContent = explain(view);
        element.replaceChildren(badge(view), ' ', text);
        const open = document.querySelector('[data-ready-link]');
        if (open && view.status === 'ready') open.classList.add('primary');
        if (view.done) document.querySelector('progress.working')?.remove();
      } else {
        element.replaceChildren(badge(view));
      }
    });
  }

  const form = document.getElementById('upload-form');
  if (!form) return;
  const panel = document.getElementById('upload-progress');
  const fileName = document.getElementById('upload-file-name');
  const bar = document.getElementById('upload-bar');
  const state = document.getElementById('upload-state');
  const retry = document.getElementById('upload-retry');
  const open = document.getElementById('upload-open');
  const another = document.getElementById('upload-another');
  const submit = form.querySelector('button[type="submit"]');
  const sizes = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  let sending = false;

  const megabytes = (bytes) => (bytes < 1_000_000 ? `${sizes.format(bytes / 1000)} KB` : `${sizes.format(bytes / 1_000_000)} MB`);
  const say = (text) => {
    state.textContent = text;
  };

  /** The problems of a refused form, each beside its field, as the server writes them without script. */
  function showProblems(problems) {
    for (const old of form.querySelectorAll('.field-error[data-from-script]')) old.remove();
    for (const input of form.querySelectorAll('[aria-invalid]')) {
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', (input.getAttribute('aria-describedby') || '').replace(/\s*\S+-error/g, '').trim());
    }
    let first = null;
    for (const [field, problem] of Object.entries(problems)) {
      const input = field === 'general' ? null : form.querySelector(`[name="${field}"]`);
      const note = document.createElement(input ? 'span' : 'p');
      note.className = input ? 'field-error' : 'alert';
      note.dataset.fromScript = '';
      note.textContent = problem;
      if (input) {
        note.id = `${input.id}-error`;
        input.after(note);
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', `${input.getAttribute('aria-describedby') || ''} ${note.id}`.trim());
        first ??= input;
      } else {
        note.setAttribute('role', 'alert');
        form.prepend(note);
      }
    }
    first?.focus();
  }

  /** Sends the file with the page's progress; resolves with the final HTTP status (0 when the network failed). */
  function put(upload, file) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open('PUT', upload.upload_path);
      for (const [name, value] of Object.entries(upload.upload_headers)) request.setRequestHeader(name, value);
      request.upload.addEventListener('progress', (event) => {
        if (!event.lengthComputable) return;
        const percent = Math.floor((event.loaded / event.total) * 100);
        bar.value = percent;
        bar.textContent = `${percent}%`;
        say(`Uploading: ${megabytes(event.loaded)} of ${megabytes(event.total)} (${percent}%)`);
      });
      request.addEventListener('load', () => {
        let message = '';
        try {
          message = JSON.parse(request.responseText)?.error?.message ?? '';
        } catch {}
        resolve({ status: request.status, message });
      });
      request.addEventListener('error', () => resolve({ status: 0, message: '' }));
      request.addEventListener('abort', () => resolve({ status: 0, message: '' }));
      request.send(file);
    });
  }

  async function send(upload, file) {
    sending = true;
    retry.hidden = true;
    bar.value = 0;
    say(`Uploading: 0 KB of ${megabytes(file.size)} (0%)`);
    const { status, message } = await put(upload, file);
    sending = false;
    // 409 "already used": an earlier try went through even though its answer was lost.
    if ((status >= 200 && status < 300) || status === 409) {
      bar.value = 100;
      say('Uploaded. Processing the file…');
      open.href = upload.video_url;
      open.hidden = false;
      follow(upload.status_url, (view) => {
        say(view.status === 'ready' ? `Ready: “${view.title}” can be shared.` : explain(view));
        if (view.done) another.hidden = false;
      });
      return;
    }
    if (status === 403) {
      say(`${message || 'The upload link has expired.'} Choose the file again to start over.`);
      form.hidden = false;
      submit.disabled = false;
      return;
    }
    say(`The upload stopped${message ? `: ${message}` : ' (the connection was lost)'}. You can try again; it starts from the beginning.`);
    retry.hidden = false;
    retry.onclick = () => send(upload, file);
    retry.focus();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = form.querySelector('input[type="file"]');
    const file = input.files?.[0];
    if (!file) {
      showProblems({ file: 'Choose a video file to upload.' });
      return;
    }
    submit.disabled = true;
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value);
    fields.set('file_name', file.name);
    fields.set('file_size', String(file.size));
    let response;
    try {
      response = await fetch(form.action, {
        method: 'POST',
        body: fields,
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      });
    } catch {
      showProblems({ general: 'The service could not be reached. Check the connection and try again.' });
      submit.disabled = false;
      return;
    }
    const answer = await response.json().catch(() => ({ problems: { general: 'That did not work. Please try again.' } }));
    if (!response.ok) {
      showProblems(answer.problems ?? { general: 'That did not work. Please try again.' });
      submit.disabled = false;
      return;
    }
    showProblems({});
    form.hidden = true;
    panel.hidden = false;
    fileName.textContent = `${file.name} · ${megabytes(file.size)}`;
    await send(answer, file);
  });

  // Leaving mid-transfer loses it: ask first.
  window.addEventListener('beforeunload', (event) => {
    if (sending) event.preventDefault();
  });
})();
