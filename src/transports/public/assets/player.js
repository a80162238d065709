/*
 * The Cuepoint player script (GET /player.js): watches the page's <video data-cuepoint-token> and
 * reports what the viewer did to POST /collect in numbered batches, every few seconds and with
 * sendBeacon when the page is hidden or left. When the page has a lead form (form.cp-lead), shows it
 * at its placement and submits it to POST /leads/capture. A click on a call to action (the "Book a
 * call" link) is reported as a cta_click. docs/viewer.md describes them. Plain
 * browser JavaScript, no build step, no cookies: the viewer id is random and kept in localStorage.
 *
 * The reporting and the form's sending are offered to the route player (/route-player.js) too, as
 * window.cuepointReporting, so each step of a route is reported exactly like a watch page's video.
 * What plays in the element (the original file, or its adaptive stream) is /playback.js's choice;
 * the reporting reads the element's events alike for both.
 */
(() => {
  const ENDPOINT = '/collect';
  const FLUSH_EVERY_MS = 5000;
  const MAX_EVENTS = 50;
  const MAX_RANGES = 20;
  // The server refuses a batch holding more than 900 s of playing; seal long before that.
  const MAX_PENDING_PLAY_SECONDS = 300;
  // Between two timeupdates (about 4 a second) playback moves a fraction of a second; more than
  // this, or than the wall-clock time since (a busy page fires them late), is a jump.
  const NORMAL_STEP_SECONDS = 1.5;
  // hls.js jumps over a hole in a stream (a stream's first picture may come a fraction of a second
  // after 0) of up to 2 s; a longer forward jump it announces is a new stretch of playing.
  const MAX_HOLE_SECONDS = 2.5;
  const VIEWER_KEY = 'cuepoint_viewer';
  const VIEWER_ID = /^[A-Za-z0-9_-]{16,64}$/;
  const SUBMITTED_KEY = 'cuepoint_lead_submitted';

  let pageViewerId = null;

  /** The browser's viewer id, read (or made) once per page. */
  function viewerId() {
    pageViewerId ??= loadViewerId();
    return pageViewerId;
  }

  function loadViewerId() {
    try {
      const stored = localStorage.getItem(VIEWER_KEY);
      if (stored && VIEWER_ID.test(stored)) return stored;
      const fresh = randomId();
      localStorage.setItem(VIEWER_KEY, fresh);
      return fresh;
    } catch {
      // Storage blocked (privacy settings, some sandboxed frames): one id for this page view.
      return randomId();
    }
  }

  function randomId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  /**
   * Reports the viewing of one video element under one viewing token (one session). Listening
   * starts at once; detach() stops it (the route player plays the next step in the same element)
   * and attach() resumes it in the same session, numbering on. Batches already made keep being sent
   * after a detach, until the server has answered them.
   */
  function startReporting(video, token, declaredDuration) {
    const viewer = viewerId();
    let attached = false;
    let sequence = 0;
    let events = []; // discrete events not yet in a batch
    let ranges = []; // played ranges not yet in a progress event
    let current = null; // the range playback is extending now
    let pendingPlay = 0;
    let lastTime = video.currentTime;
    let lastSampledAt = performance.now();
    let lastSeek = null; // a seek that further seeks (scrubbing) update instead of adding more
    // While /playback.js replaces a failed stream with the original file, the element reloads,
    // rewinds and seeks back by itself: none of that is the viewer's doing.
    let swapping = false;
    // Where the stream engine has just moved the playhead by itself, over a hole in the stream: the
    // `seeking` that follows is not the viewer's.
    let engineJumpTo = null;
    const outbox = []; // sealed batches, oldest first, kept until the server has answered them
    let sending = false;

    function duration() {
      if (declaredDuration > 0) return declaredDuration;
      return Number.isFinite(video.duration) ? video.duration : Number.MAX_VALUE;
    }

    /** A media time as the server takes it: 3 decimals, inside the video. */
    function at(seconds) {
      const rounded = Math.round(seconds * 1000) / 1000;
      return Math.min(Math.max(rounded, 0), Math.floor(duration() * 1000) / 1000);
    }

    /** Extends the played ranges up to the current time, unless the time jumped. */
    function sample() {
      // Mid-seek the time is already the target; the seeking handler accounts for the jump. Detached,
      // the element plays something else.
      if (!attached || swapping || video.seeking) return;
      const time = video.currentTime;
      const step = time - lastTime;
      const now = performance.now();
      const rate = Math.max(1, video.playbackRate);
      const normal = Math.max(NORMAL_STEP_SECONDS, ((now - lastSampledAt) / 1000 + 0.5) * 1.1) * rate;
      lastSampledAt = now;
      if (step > 0 && step <= normal) {
        if (current && current[1] === lastTime) current[1] = time;
        else {
          current = [lastTime, time];
          ranges.push(current);
        }
        pendingPlay += step;
        lastSeek = null;
      } else if (step !== 0) {
        current = null;
      }
      lastTime = time;
      if (pendingPlay >= MAX_PENDING_PLAY_SECONDS) seal();
    }

    /** Turns what is pending into batches of at most 50 events, each with the next sequence number. */
    function seal() {
      const sealed = events;
      const played = ranges.map(([start, end]) => [at(start), at(end)]).filter(([start, end]) => start < end);
      events = [];
      ranges = [];
      current = null;
      lastSeek = null;
      pendingPlay = 0;
      for (let i = 0; i < played.length; i += MAX_RANGES) sealed.push({ type: 'progress', ranges: played.slice(i, i + MAX_RANGES) });
      for (let i = 0; i < sealed.length; i += MAX_EVENTS) {
        sequence += 1;
        const body = JSON.stringify({ token, viewer_id: viewer, sequence, events: sealed.slice(i, i + MAX_EVENTS) });
        outbox.push({ sequence, body, beaconed: false });
      }
    }

    /**
     * Sends the outbox in order, one batch at a time, so the server sees sequences rising. A batch
     * that fails (network, 5xx, 408, 429) stays first and goes again, unchanged, on the next round;
     * a 2xx or another 4xx answer is final.
     */
    async function send() {
      if (sending) return;
      sending = true;
      try {
        while (outbox.length > 0) {
          const batch = outbox[0];
          let response;
          try {
            response = await fetch(ENDPOINT, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: batch.body,
              keepalive: true,
            });
          } catch {
            return;
          }
          if (response.status >= 500 || response.status === 408 || response.status === 429) return;
          if (!response.ok) console.warn(`cuepoint: /collect refused batch ${batch.sequence} with ${response.status}; dropped`);
          outbox.shift();
        }
      } finally {
        sending = false;
      }
    }

    function flush() {
      if (events.length > 0 || ranges.length > 0) seal();
      if (outbox.length > 0) send();
    }

    /**
     * The page is hidden or going away: beacon everything not yet answered. A beacon's answer is never
     * seen, so its batch stays in the outbox; if the page lives on, the next round sends it again and
     * the server, which de-duplicates by sequence, counts it once.
     */
    function leave() {
      sample();
      if (events.length > 0 || ranges.length > 0) seal();
      if (typeof navigator.sendBeacon !== 'function') {
        send();
        return;
      }
      for (const batch of outbox) {
        if (!batch.beaconed) batch.beaconed = beacon(batch.body);
      }
    }

    function beacon(body) {
      try {
        return navigator.sendBeacon(ENDPOINT, new Blob([body], { type: 'application/json' }));
      } catch {
        // Browsers that refuse a JSON beacon take it as text; /collect reads both.
        return navigator.sendBeacon(ENDPOINT, new Blob([body], { type: 'text/plain;charset=UTF-8' }));
      }
    }

    function record(event) {
      events.push(event);
    }

    function onPlay() {
      if (swapping) return;
      // Paused, the time moves only by seeking, which sets lastTime: that is where playing starts,
      // even if a busy page runs this handler after the first frames have played.
      lastSampledAt = performance.now();
      record({ type: 'play', position: at(lastTime) });
    }
    function onPause() {
      if (swapping) return;
      sample();
      record({ type: 'pause', position: at(video.currentTime) });
    }
    function onSeeking() {
      if (swapping) return;
      const to = video.currentTime;
      const jumpedByEngine = engineJumpTo !== null && Math.abs(to - engineJumpTo) < 0.001;
      engineJumpTo = null;
      if (jumpedByEngine) {
        acrossHole(to);
        return;
      }
      if (lastSeek && events[events.length - 1] === lastSeek) lastSeek.to = at(to);
      else {
        lastSeek = { type: 'seek', from: at(lastTime), to: at(to) };
        record(lastSeek);
      }
      current = null;
      lastTime = to;
    }
    function onEnded() {
      if (swapping) return;
      sample();
      record({ type: 'ended', position: at(video.currentTime) });
    }
    /** /playback.js says its engine is moving the playhead (cuepoint:enginejump, before the `seeking`). */
    function onEngineJump(event) {
      engineJumpTo = event.detail.to;
    }

    /**
     * Playing goes on across the hole the engine jumped: nothing was there to see, and a file player
     * would have played through it, so the played range spans it (a stream's first fraction of a
     * second is then watched, as the file's is).
     */
    function acrossHole(to) {
      const from = lastTime;
      if (!video.paused && to > from && to - from <= MAX_HOLE_SECONDS) {
        if (current && current[1] === from) current[1] = to;
        else {
          current = [from, to];
          ranges.push(current);
        }
        pendingPlay += to - from;
      } else {
        current = null;
      }
      lastTime = to;
    }

    function onSwapping() {
      sample();
      swapping = true;
    }
    /**
     * Back where the viewer was: the played range goes on from the moment the stream stopped, as if
     * nothing had happened (the file may have played on a little before this is heard; the next
     * sample counts it). A swap that could not resume there starts afresh from wherever it is.
     */
    function onSwapped(event) {
      swapping = false;
      if (event.detail?.resumedAt !== lastTime) {
        current = null;
        lastTime = video.currentTime;
      }
      lastSampledAt = performance.now();
    }
    const listeners = [
      ['timeupdate', sample],
      ['play', onPlay],
      ['pause', onPause],
      ['seeking', onSeeking],
      ['ended', onEnded],
      ['cuepoint:enginejump', onEngineJump],
      ['cuepoint:swapping', onSwapping],
      ['cuepoint:swapped', onSwapped],
    ];

    function attach() {
      if (attached) return;
      attached = true;
      swapping = false; // a swap that ended while detached was not heard
      lastTime = video.currentTime;
      lastSampledAt = performance.now();
      current = null;
      for (const [type, listener] of listeners) video.addEventListener(type, listener);
    }

    /** Stops listening: what was played so far is batched and sent. */
    function detach() {
      if (!attached) return;
      sample();
      attached = false;
      for (const [type, listener] of listeners) video.removeEventListener(type, listener);
      flush();
    }

    attach();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') leave();
    });
    window.addEventListener('pagehide', leave);
    setInterval(flush, FLUSH_EVERY_MS);

    return { viewerId: viewer, at, sample, record, flush, attach, detach };
  }

  /**
   * Sends a lead form (form.cp-lead) when it is submitted: trims and checks the fields first (the
   * problem read out by the form's status line, the field marked and focused), then POSTs the
   * fields with what `base()` gives to `endpoint`, after `beforeSend` (which sends the viewing not yet
   * reported, so it is on record when the browser is linked). Refusals are told in words; a sent
   * form is confirmed outside the form, remembered by the browser, and `onSent` runs.
   */
  function sendLeadForm(form, { endpoint, base, beforeSend, onSent }) {
    const status = form.querySelector('.cp-status');
    const submitButton = form.querySelector('button[type=submit]');

    function say(message) {
      status.textContent = message;
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const inputs = Array.from(form.querySelectorAll('input'));
      for (const input of inputs) input.value = input.value.trim();
      const invalid = inputs.filter((input) => !input.checkValidity());
      for (const input of inputs) input.setAttribute('aria-invalid', String(invalid.includes(input)));
      if (invalid.length > 0) {
        const [first] = invalid;
        say(first.name === 'email' && first.value === '' ? 'Please enter your email.' : `Please check: ${labelOf(first)}.`);
        first.focus();
        return;
      }
      const body = base();
      for (const input of inputs) if (input.value !== '') body[input.name] = input.value;
      submitButton.disabled = true;
      say('Sending…');
      try {
        await beforeSend();
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (response.ok) {
          try {
            localStorage.setItem(SUBMITTED_KEY, '1');
          } catch {
            // Storage blocked: the form may be asked again on the next page view.
          }
          say('');
          const sent = form.parentElement.querySelector('.cp-lead-sent');
          if (sent) sent.textContent = 'Thank you: your details were sent.';
          onSent();
          return;
        }
        say(await refusal(response));
      } catch {
        say('Could not send: check your connection and try again.');
      } finally {
        submitButton.disabled = false;
      }
    });

    function labelOf(input) {
      return input.closest('label').firstChild.textContent.trim().toLowerCase();
    }

    async function refusal(response) {
      if (response.status === 429) return 'Too many tries: please wait a minute and try again.';
      if (response.status === 403) return 'This page has expired: reload it and try again.';
      try {
        const answer = await response.json();
        const problems = answer.error?.details?.errors ?? [];
        const named = problems.map((problem) => problem.field).filter((field) => form.elements.namedItem(field));
        for (const input of form.querySelectorAll('input')) input.setAttribute('aria-invalid', String(named.includes(input.name)));
        if (named.length > 0) return `Please check: ${named.map((name) => labelOf(form.elements.namedItem(name))).join(', ')}.`;
      } catch {
        // Not our JSON (a proxy's page): the generic message below.
      }
      return 'Could not send: please try again.';
    }
  }

  /**
   * Shows a lead form over its player, or over the whole screen where it would not fit the player
   * (its content taller than the player, or the player partly off screen, as on a phone in landscape):
   * a form whose button sits below the edge of a scroll box loses the lead. Checked again when the
   * window changes size (a phone turned). Skip, No thanks or Escape, where the form may be dismissed,
   * closes it as before: the way back to the video is the same in both forms.
   */
  function showLeadForm(form) {
    form.hidden = false;
    fitLeadForm(form);
    if (!form.dataset.fitted) {
      form.dataset.fitted = 'true';
      window.addEventListener('resize', () => {
        if (!form.hidden) fitLeadForm(form);
      });
    }
  }

  function fitLeadForm(form) {
    form.classList.remove('cp-lead-full');
    const stage = form.parentElement.getBoundingClientRect();
    const fits = form.scrollHeight <= form.clientHeight + 1 && stage.top >= 0 && stage.bottom <= window.innerHeight + 1;
    form.classList.toggle('cp-lead-full', !fits);
  }

  window.cuepointReporting = { viewerId, start: startReporting, sendLeadForm, showLeadForm };

  const video = document.querySelector('video[data-cuepoint-token]');
  if (!video) return;
  const reporter = startReporting(video, video.dataset.cuepointToken, Number(video.dataset.cuepointDuration));

  startAtLinkedSecond(video);
  setUpLeadForm(document.querySelector('form.cp-lead'));

  /** A link to a moment (`?t=95`, as search answers give) opens the video at that second. */
  function startAtLinkedSecond(media) {
    const second = Number(new URLSearchParams(location.search).get('t'));
    if (!Number.isFinite(second) || second <= 0) return;
    const seek = () => {
      if (second < media.duration) media.currentTime = second;
    };
    if (media.readyState >= 1) seek();
    else media.addEventListener('loadedmetadata', seek, { once: true });
  }

  /**
   * The lead form: before playback it holds play back (a gate), at its second it pauses the video,
   * at the end it follows the last frame. While it shows, the video is inert (no focus, no clicks)
   * and focus is in the form; it goes back to the video when the form closes. Escape closes it when
   * it may be dismissed. A browser that has sent a form is not asked again.
   */
  function setUpLeadForm(form) {
    if (!form) return;
    const placement = form.dataset.placement;
    const atSecond = Number(form.dataset.atSecond);
    const dismissable = form.dataset.dismissable === 'true';
    let state = 'waiting'; // waiting → showing → done
    let resumeAfter = false;

    if (alreadySubmitted()) return;

    function alreadySubmitted() {
      try {
        return localStorage.getItem(SUBMITTED_KEY) === '1';
      } catch {
        return false;
      }
    }

    function show(resume) {
      if (state !== 'waiting') return;
      state = 'showing';
      resumeAfter = resume;
      if (!video.paused) video.pause();
      video.inert = true;
      showLeadForm(form);
      form.querySelector('input').focus();
    }

    function close(play) {
      state = 'done';
      form.hidden = true;
      video.inert = false;
      video.focus();
      if (play) video.play().catch(() => {});
    }

    if (placement === 'before') {
      show(false);
      // The gate holds: a play that slips through (a media key, a script) is undone while it shows.
      video.addEventListener('play', () => {
        if (state === 'showing') video.pause();
      });
    } else if (placement === 'at_second') {
      video.addEventListener('timeupdate', () => {
        if (state === 'waiting' && !video.seeking && video.currentTime >= atSecond) show(true);
      });
    } else if (placement === 'end') {
      video.addEventListener('ended', () => show(false));
    }

    const dismiss = form.querySelector('.cp-dismiss');
    if (dismiss) dismiss.addEventListener('click', () => close(resumeAfter));
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && dismissable) {
        event.preventDefault();
        close(resumeAfter);
      }
    });

    sendLeadForm(form, {
      endpoint: '/leads/capture',
      base: () => ({ token: video.dataset.cuepointToken, viewer_id: reporter.viewerId }),
      // Send what was watched first, so the session is on record when the lead is linked.
      beforeSend: () => reporter.flush(),
      onSent: () => close(placement !== 'end'),
    });
  }

  /** Records a click on a call to action at the current position, and sends it at once: the click may leave the page. */
  function ctaClick(label) {
    reporter.sample();
    reporter.record({ type: 'cta_click', position: reporter.at(video.currentTime), label: String(label ?? '').slice(0, 200) });
    reporter.flush();
  }

  setUpCallsToAction();

  /**
   * The page's calls to action (a[data-cuepoint-cta], such as "Book a call"): each click is reported;
   * one marked data-cuepoint-show="ended" stays hidden until the video ends, then stays.
   */
  function setUpCallsToAction() {
    for (const link of document.querySelectorAll('a[data-cuepoint-cta]')) {
      link.addEventListener('click', () => ctaClick(link.dataset.cuepointCta));
      if (link.dataset.cuepointShow === 'ended') video.addEventListener('ended', () => (link.hidden = false));
    }
  }

  window.cuepoint = {
    /** For pages that add a call to action of their own: records a click on it at the current position. */
    ctaClick,
  };
})();
