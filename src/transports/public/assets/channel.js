/*
 * The channel page's script (GET /channel.js): reports the page view, and each item opened from it
 * (a card followed, the featured player played), to the page's POST /c/{slug}/events. The page view
 * gets a random id here, so the page itself holds nothing per visit and can be cached; the viewer id
 * is the one /player.js keeps (window.cuepointReporting), so a visitor counts once across pages.
 * Plain browser JavaScript, no build step, no cookies. docs/channel.md describes the reports.
 */
(() => {
  const main = document.querySelector('main[data-cuepoint-channel]');
  if (!main || !window.crypto?.randomUUID) return;
  const endpoint = main.dataset.cuepointChannel;
  const viewId = crypto.randomUUID();
  const viewerId = window.cuepointReporting ? window.cuepointReporting.viewerId() : null;
  const opened = new Set();

  /** Leaving the page must not lose a report: a beacon when it can, a keepalive fetch otherwise. */
  function send(events) {
    const body = JSON.stringify({ view_id: viewId, viewer_id: viewerId, events });
    if (navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'text/plain' }))) return;
    fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true }).catch(() => {});
  }

  function open(element) {
    const key = `${element.dataset.kind}:${element.dataset.id}`;
    if (opened.has(key)) return;
    opened.add(key);
    send([{ type: 'open', kind: element.dataset.kind, id: element.dataset.id }]);
  }

  send([{ type: 'view' }]);

  // A card: a click, a middle click or Enter all follow the link.
  for (const card of document.querySelectorAll('a[data-cuepoint-item]')) {
    card.addEventListener('click', () => open(card));
    card.addEventListener('auxclick', (event) => {
      if (event.button === 1) open(card);
    });
  }

  // The featured player is another page in a frame: the window losing focus to it means the visitor reached into it.
  const frame = document.querySelector('iframe[data-cuepoint-item]');
  if (frame) {
    window.addEventListener('blur', () => {
      setTimeout(() => {
        if (document.activeElement === frame) open(frame);
      });
    });
  }
})();
