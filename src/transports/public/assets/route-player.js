/*
 * The route player script (GET /route-player.js), loaded after /player.js by GET /r/{route_id}.
 * Plays the route's steps in one <video> without reloading the page: the entry step first; at the
 * step's end (or at its ask_at_seconds, pausing) the question and its choices over the player; a
 * choice plays the next step (with its own captions; its adaptive stream or its file, as /playback.js
 * chooses), opens a link (new tab) with an end card, opens an event type's booking
 * page in this tab (/book/{event_type_id}?route={route_id}, once the choice is on record), shows the
 * lead form, or shows the end card. Each step's viewing is reported to /collect by /player.js's reporting, under
 * the step's own viewing token; the visit's steps, choices and finish go to /r/{route_id}/events in
 * order, sent again on network errors and 5xx, and beaconed when the page is left.
 * docs/viewer.md ("Route player") describes the protocol. Plain browser JavaScript, no build step.
 */
(() => {
  const reporting = window.cuepointReporting;
  const playback = window.cuepointPlayback;
  const dataBlock = document.getElementById('cp-route');
  const video = document.querySelector('.cp-stage video');
  if (!reporting || !playback || !dataBlock || !video) return;

  const RETRY_MS = 3000;
  const MAX_EVENTS = 20;
  const route = JSON.parse(dataBlock.textContent);
  const EVENTS_ENDPOINT = `/r/${route.route_id}/events`;
  const steps = new Map(route.steps.map((step) => [step.step_id, step]));
  const viewerId = reporting.viewerId();

  const question = document.querySelector('.cp-question');
  const questionText = question.querySelector('h2');
  const choiceList = question.querySelector('.cp-choices');
  const endCard = document.querySelector('.cp-end');
  const endHeading = endCard.querySelector('h2');
  const endText = endCard.querySelector('p');
  const endLink = endCard.querySelector('a');
  const form = document.querySelector('form.cp-lead');

  // The visit so far: the step playing, its index in the path, and each step's reporter (a step
  // played again continues its session rather than starting one the server would count twice).
  let step = null;
  let index = -1;
  let reported = false; // whether the server was told this index was reached
  let asked = false;
  let reporter = null;
  const reporters = new Map();

  // ---- The visit's events: in order, a batch at a time, kept until the server has answered.
  const queue = [];
  let sending = null;
  let retryTimer = null;

  function report(event) {
    queue.push(event);
    pump();
  }

  /** Sends what is queued; resolves when the queue is empty or a send failed (a retry is then scheduled). */
  function pump() {
    sending ??= sendQueued().finally(() => {
      sending = null;
      if (queue.length > 0 && retryTimer === null) pump();
    });
    return sending;
  }

  async function sendQueued() {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_EVENTS);
      let response;
      try {
        response = await fetch(EVENTS_ENDPOINT, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: route.token, viewer_id: viewerId, events: batch }),
          keepalive: true,
        });
      } catch {
        return retryLater();
      }
      if (response.status >= 500 || response.status === 408 || response.status === 429) return retryLater();
      // Refused (a stale page, a route re-wired meanwhile): sending it again would be refused again.
      if (!response.ok) console.warn(`cuepoint: ${EVENTS_ENDPOINT} refused ${batch.length} events with ${response.status}; dropped`);
      queue.splice(0, batch.length);
    }
  }

  function retryLater() {
    if (retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      pump();
    }, RETRY_MS);
  }

  /** Leaving: what is still queued goes by beacon. Re-sent events change nothing, so a page that lives on may send them again. */
  window.addEventListener('pagehide', () => {
    if (queue.length === 0 || typeof navigator.sendBeacon !== 'function') return;
    for (let i = 0; i < queue.length; i += MAX_EVENTS) {
      const body = JSON.stringify({ token: route.token, viewer_id: viewerId, events: queue.slice(i, i + MAX_EVENTS) });
      try {
        navigator.sendBeacon(EVENTS_ENDPOINT, new Blob([body], { type: 'application/json' }));
      } catch {
        // Browsers that refuse a JSON beacon take it as text; the endpoint reads both.
        navigator.sendBeacon(EVENTS_ENDPOINT, new Blob([body], { type: 'text/plain;charset=UTF-8' }));
      }
    }
  });

  // ---- Steps.

  function reached() {
    if (reported) return;
    reported = true;
    report({ type: 'step', index, step_id: step.step_id });
  }

  function playStep(next, nextIndex) {
    if (reporter) reporter.detach();
    reporter = null;
    step = next;
    index = nextIndex;
    reported = false;
    asked = false;
    hideLayers();
    if (!next.video) {
      // The step's video was archived or is not ready: the visit reached it and can go no further.
      if (nextIndex > 0) reached();
      showEnd('This part of the route is not available', 'Its video has been removed or is not ready.');
      return;
    }
    // The page starts with the entry step's video in place; every later step loads its own, from its
    // start, even when it plays the same video again. /playback.js gives it its stream, or its file.
    if (nextIndex > 0 || video.getAttribute('src') !== next.video.src) {
      if (next.video.poster) video.poster = next.video.poster;
      else video.removeAttribute('poster');
      video.setAttribute('aria-label', next.video.title);
      setCaptions(next.video.captions);
    }
    const ready = playback.load(video, { src: next.video.src, hls: next.video.hls });
    reporter = reporters.get(next.step_id);
    if (reporter) reporter.attach();
    else {
      reporter = reporting.start(video, next.video.token, Number(next.video.duration));
      reporters.set(next.step_id, reporter);
    }
    // The entry step is reached when the viewer plays it (a visit is a start); the next ones as
    // soon as they were chosen, and they play at once.
    if (nextIndex > 0) {
      reached();
      video.focus();
      ready.then(() => video.play().catch(() => {}));
    }
  }

  /** The step's captions in place of the last step's; shown at once if the viewer had captions on. */
  function setCaptions(captions) {
    const showing = Array.from(video.textTracks).some((track) => track.mode === 'showing');
    for (const old of video.querySelectorAll('track')) old.remove();
    if (!captions) return;
    const track = document.createElement('track');
    track.kind = 'captions';
    track.src = captions.src;
    if (captions.srclang) track.srclang = captions.srclang;
    track.label = captions.label;
    video.append(track);
    if (showing) track.track.mode = 'showing';
  }

  video.addEventListener('play', () => {
    if (!question.hidden || !form.hidden || !endCard.hidden) {
      // A media key while a question, the form or the end card shows: the step waits for the viewer's answer.
      video.pause();
      return;
    }
    if (step?.video) reached();
  });
  video.addEventListener('timeupdate', () => {
    if (!step || asked || step.ask_at_seconds === null || step.choices.length === 0 || video.seeking) return;
    if (video.currentTime >= step.ask_at_seconds) {
      video.pause();
      ask();
    }
  });
  video.addEventListener('ended', () => {
    if (!step || asked) return;
    if (step.choices.length > 0) ask();
    else {
      asked = true;
      reached();
      report({ type: 'finish', index, step_id: step.step_id });
      showEnd('The end', 'Thanks for watching.');
    }
  });

  // ---- The question, the end card, the form.

  function hideLayers() {
    question.hidden = true;
    endCard.hidden = true;
    form.hidden = true;
    video.inert = false;
  }

  /** The question and its choices over the paused player; focus on the first choice. Escape does not dismiss it. */
  function ask() {
    asked = true;
    reached();
    questionText.textContent = step.question ?? 'What next?';
    choiceList.replaceChildren(
      ...step.choices.map((choice) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = choice.label;
        button.addEventListener('click', () => choose(choice));
        return button;
      }),
    );
    video.inert = true;
    question.hidden = false;
    choiceList.querySelector('button')?.focus();
  }

  function choose(choice) {
    const from = { index, step_id: step.step_id };
    report({ type: 'choice', ...from, choice_id: choice.choice_id });
    if (choice.target === 'step') {
      const next = steps.get(choice.to_step_id);
      if (next) playStep(next, index + 1);
      return;
    }
    if (choice.target === 'url') {
      window.open(choice.url, '_blank', 'noopener');
      showEnd('The link opened in a new tab', 'Thanks for watching.', { href: choice.url, text: 'Open the link again' });
      return;
    }
    if (choice.target === 'lead_form') {
      showForm(from);
      return;
    }
    if (choice.target === 'booking') {
      openBookingPage(choice);
      return;
    }
    showEnd('The end', 'Thanks for watching.');
  }

  /**
   * Leaves for the booking page in this tab, naming the route so the booking is credited to it. The
   * choice (and the step's viewing) go on record first: a page being left may drop a request.
   */
  async function openBookingPage(choice) {
    const href = `/book/${encodeURIComponent(choice.event_type_id)}?route=${encodeURIComponent(route.route_id)}`;
    showEnd('Opening the booking page…', '', { href, text: 'Open the booking page' });
    reporter?.flush();
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    await pump();
    location.assign(href);
  }

  function showEnd(heading, text, link) {
    hideLayers();
    if (!video.paused) video.pause();
    video.inert = true;
    endHeading.textContent = heading;
    endText.textContent = text;
    endLink.hidden = !link;
    if (link) {
      endLink.href = link.href;
      endLink.textContent = link.text;
    }
    endCard.hidden = false;
    endHeading.focus();
  }

  // Watching again is a new visit: a new page view, with new tokens.
  endCard.querySelector('.cp-restart').addEventListener('click', () => location.reload());

  let formAt = null;

  function showForm(from) {
    formAt = from;
    hideLayers();
    video.inert = true;
    reporting.showLeadForm(form);
    form.querySelector('input').focus();
  }

  form.querySelector('.cp-dismiss')?.addEventListener('click', () => showEnd('Thanks for watching', ''));
  reporting.sendLeadForm(form, {
    endpoint: `/r/${route.route_id}/lead`,
    base: () => ({ token: route.token, viewer_id: viewerId, index: formAt.index, step_id: formAt.step_id }),
    // The choice that showed the form must be on record first, and so should the viewing.
    beforeSend: async () => {
      reporter?.flush();
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      await pump();
    },
    onSent: () => showEnd('Thank you', 'Your details were sent.'),
  });

  const entry = route.steps.find((candidate) => candidate.entry);
  if (entry) playStep(entry, 0);
})();
