/*
 * The booking page script (GET /booking-page.js), loaded by GET /book/{event_type_id}. Loads the
 * offered slots 31 days at a time from /book/{id}/slots, shows the days that have some and then a
 * day's times, all in the viewer's time zone (the browser's, changeable in the select); the chosen
 * time and the details form go to POST /book/{id}; the answer's times, calendar file and cancel
 * link make the confirmation. A time taken meanwhile (409) offers the next open ones. Plain browser
 * JavaScript, no build step; the viewer id the player keeps (localStorage) is sent when there is one.
 */
(() => {
  const dataBlock = document.getElementById('cp-booking');
  if (!dataBlock) return;
  const page = JSON.parse(dataBlock.textContent);
  const BASE = `/book/${page.event_type_id}`;
  const WINDOW_MS = 31 * 86_400_000;
  const VIEWER_ID = /^[A-Za-z0-9_-]{16,64}$/;

  const zoneSelect = document.getElementById('cp-zone');
  const days = document.getElementById('cp-days');
  const more = document.getElementById('cp-more');
  const timesTitle = document.getElementById('cp-times-title');
  const times = document.getElementById('cp-times');
  const pickStatus = document.getElementById('cp-pick-status');
  const picker = document.getElementById('cp-pick');
  const form = document.getElementById('cp-details');
  const formTitle = document.getElementById('cp-details-title');
  const chosenText = document.getElementById('cp-chosen');
  const status = document.getElementById('cp-status');
  const nextBox = document.getElementById('cp-next');
  const submit = form.querySelector('button[type=submit]');
  const done = document.getElementById('cp-done');

  let zone = browserZone();
  let slots = []; // every offered slot loaded so far, earliest first: { start, end } as Dates
  let loadedUntil = Date.now(); // the end of the last window loaded
  let day = null; // the chosen day, 'YYYY-MM-DD' in the zone shown
  let chosen = null; // the chosen slot

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      return 'UTC';
    }
  }

  // ---- The time zone select: every zone the browser knows, the browser's own selected.
  function fillZones() {
    let zones = [];
    try {
      zones = Intl.supportedValuesOf('timeZone');
    } catch {
      zones = [];
    }
    if (!zones.includes(zone)) zones = [zone, ...zones];
    if (!zones.includes('UTC')) zones = [...zones, 'UTC'];
    zoneSelect.replaceChildren(
      ...zones.map((name) => {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = name.replaceAll('_', ' ');
        option.selected = name === zone;
        return option;
      }),
    );
    zoneSelect.addEventListener('change', () => {
      zone = zoneSelect.value;
      renderDays();
      if (day) renderTimes();
      if (chosen)
        chosenText.textContent = `${dayLabel(chosen.start)}, ${timeLabel(chosen.start)} – ${timeLabel(chosen.end)} (${zoneName()})`;
    });
  }

  // ---- Dates in the zone shown.
  const zoneName = () => zone.replaceAll('_', ' ');
  function dayKey(date) {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  }
  function dayLabel(date) {
    return new Intl.DateTimeFormat(undefined, { timeZone: zone, weekday: 'long', month: 'long', day: 'numeric' }).format(date);
  }
  function shortDayLabel(date) {
    return new Intl.DateTimeFormat(undefined, { timeZone: zone, weekday: 'short', month: 'short', day: 'numeric' }).format(date);
  }
  function timeLabel(date) {
    return new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(date);
  }

  /**
   * The loaded slots by day in the zone shown. The last loaded day may go on past the window (its
   * later times come with the next window), so it is held back until then.
   */
  function slotsByDay() {
    const cutoff = dayKey(new Date(loadedUntil));
    const byDay = new Map();
    for (const slot of slots) {
      const key = dayKey(slot.start);
      if (key >= cutoff) break;
      if (!byDay.has(key)) byDay.set(key, []);
      byDay.get(key).push(slot);
    }
    return byDay;
  }

  // ---- Loading.
  async function load() {
    const from = new Date(loadedUntil);
    const to = new Date(loadedUntil + WINDOW_MS);
    more.disabled = true;
    pickStatus.textContent = 'Loading open times…';
    try {
      const response = await fetch(
        `${BASE}/slots?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
      );
      if (response.status === 404) {
        pickStatus.textContent = 'This booking page is no longer available.';
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      const answer = await response.json();
      const known = new Set(slots.map((slot) => slot.start.getTime()));
      for (const slot of answer.slots) {
        const start = new Date(slot.start);
        if (!known.has(start.getTime())) slots.push({ start, end: new Date(slot.end) });
      }
      slots.sort((a, b) => a.start - b.start);
      loadedUntil = to.getTime();
      const shown = renderDays();
      pickStatus.textContent = shown === 0 ? 'No open times in these dates. Try later dates.' : '';
    } catch {
      pickStatus.textContent = 'Could not load the open times: check your connection and try again.';
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener('click', () => load());

  // ---- Days, then a day's times.
  function choiceButton(text, pressed, onClick, label) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    if (label) button.setAttribute('aria-label', label);
    button.setAttribute('aria-pressed', String(pressed));
    button.addEventListener('click', onClick);
    return button;
  }

  /** Shows the days that have open times; returns how many. */
  function renderDays() {
    const byDay = slotsByDay();
    if (day && !byDay.has(day)) day = null;
    days.replaceChildren(
      ...[...byDay].map(([key, daySlots]) =>
        choiceButton(
          shortDayLabel(daySlots[0].start),
          key === day,
          () => pickDay(key),
          // The name starts with what the button shows, so speech input ("click Mon, Nov 30") finds it (WCAG 2.5.3).
          `${shortDayLabel(daySlots[0].start)}, ${daySlots.length} open`,
        ),
      ),
    );
    if (!day) {
      timesTitle.hidden = true;
      times.replaceChildren();
    }
    return byDay.size;
  }

  function pickDay(key) {
    day = key;
    renderDays();
    renderTimes();
    timesTitle.focus();
  }

  function renderTimes() {
    const daySlots = slotsByDay().get(day) ?? [];
    if (daySlots.length === 0) return;
    timesTitle.textContent = `Times on ${dayLabel(daySlots[0].start)} (${zoneName()})`;
    timesTitle.hidden = false;
    times.replaceChildren(
      ...daySlots.map((slot) => choiceButton(timeLabel(slot.start), chosen?.start.getTime() === slot.start.getTime(), () => choose(slot))),
    );
  }

  // ---- The details form.
  function choose(slot) {
    chosen = slot;
    chosenText.textContent = `${dayLabel(slot.start)}, ${timeLabel(slot.start)} – ${timeLabel(slot.end)} (${zoneName()})`;
    nextBox.hidden = true;
    status.textContent = '';
    picker.hidden = true;
    form.hidden = false;
    const firstEmpty = Array.from(form.querySelectorAll('input')).find((input) => input.value === '');
    (firstEmpty ?? formTitle).focus();
  }

  document.getElementById('cp-back').addEventListener('click', () => {
    form.hidden = true;
    picker.hidden = false;
    if (day) renderTimes();
    (times.querySelector('button[aria-pressed=true]') ?? days.querySelector('button') ?? zoneSelect).focus();
  });

  function viewerId() {
    try {
      const stored = localStorage.getItem('cuepoint_viewer');
      return stored && VIEWER_ID.test(stored) ? stored : null;
    } catch {
      return null;
    }
  }

  function labelOf(input) {
    return input.closest('label').firstChild.textContent.trim().toLowerCase();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!chosen) return;
    const inputs = Array.from(form.querySelectorAll('input'));
    for (const input of inputs) input.value = input.value.trim();
    const invalid = inputs.filter((input) => !input.checkValidity());
    for (const input of inputs) input.setAttribute('aria-invalid', String(invalid.includes(input)));
    if (invalid.length > 0) {
      status.textContent = `Please check: ${invalid.map(labelOf).join(', ')}.`;
      invalid[0].focus();
      return;
    }
    const body = { start: chosen.start.toISOString(), timezone: zone };
    for (const input of inputs) if (input.value !== '') body[input.name] = input.value;
    if (page.video_id) body.video_id = page.video_id;
    if (page.route_id) body.route_id = page.route_id;
    const viewer = viewerId();
    if (viewer) body.viewer_id = viewer;
    submit.disabled = true;
    status.textContent = 'Booking…';
    try {
      const response = await fetch(BASE, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const answer = await response.json().catch(() => null);
      if (response.status === 201 && answer) return confirmed(answer);
      status.textContent = await refusal(response, answer);
    } catch {
      status.textContent = 'Could not book: check your connection and try again.';
    } finally {
      submit.disabled = false;
    }
  });

  function refusal(response, answer) {
    const error = answer?.error;
    if (response.status === 409) {
      const next = (error?.details?.next_slots ?? []).map((slot) => ({ start: new Date(slot.start), end: new Date(slot.end) }));
      // The taken time leaves the lists; the next ones are offered right here.
      slots = slots.filter((slot) => slot.start.getTime() !== chosen.start.getTime());
      renderDays();
      nextBox
        .querySelector('.cp-grid')
        .replaceChildren(
          ...next.map((slot) => choiceButton(`${shortDayLabel(slot.start)}, ${timeLabel(slot.start)}`, false, () => choose(slot))),
        );
      nextBox.hidden = next.length === 0;
      return next.length > 0
        ? 'That time was just taken; here are the next ones.'
        : 'That time was just taken, and no other time is open soon. Pick another day.';
    }
    if (response.status === 429) return 'Too many tries: please wait a minute and try again.';
    if (response.status === 404) return 'This booking page is no longer available.';
    const problems = error?.details?.errors ?? [];
    const named = problems.map((problem) => problem.field).filter((field) => form.elements.namedItem(field));
    for (const input of form.querySelectorAll('input')) input.setAttribute('aria-invalid', String(named.includes(input.name)));
    if (named.length > 0) {
      form.elements.namedItem(named[0]).focus();
      return `Please check: ${named.map((name) => labelOf(form.elements.namedItem(name))).join(', ')}.`;
    }
    return 'Could not book: please try again.';
  }

  // ---- The confirmation.
  function confirmed(answer) {
    const start = new Date(answer.start);
    const end = new Date(answer.end);
    document.getElementById('cp-done-when').textContent =
      `${answer.event_type.name}: ${dayLabel(start)}, ${timeLabel(start)} – ${timeLabel(end)} (${zoneName()}).`;
    const where = document.getElementById('cp-done-where');
    where.replaceChildren();
    if (answer.location && /^https?:\/\//i.test(answer.location)) {
      const link = document.createElement('a');
      link.href = answer.location;
      link.rel = 'noopener';
      link.textContent = answer.location;
      where.append('Where: ', link);
    } else if (answer.location) where.textContent = `Where: ${answer.location}`;
    where.hidden = !answer.location;
    document.getElementById('cp-ics').href = answer.calendar_file_url;
    document.getElementById('cp-cancel').href = answer.cancel_url;
    form.hidden = true;
    picker.hidden = true;
    done.hidden = false;
    document.getElementById('cp-done-title').focus();
  }

  fillZones();
  load();
})();
