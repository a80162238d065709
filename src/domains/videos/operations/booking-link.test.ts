/**
 * A video's "Book a call" (update_video's booking_event_type_id): set, shown by get_video with its
 * booking URL, cleared; refused with every other problem when the event type is another workspace's,
 * inactive, or the plan has no scheduling; and what the watch and embed pages show for it: a link
 * to the booking page naming the video, while the event type can be booked.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';

test('update_video sets the booking event type, get_video shows it with its URL, null clears it, video.updated names it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour' });
  const eventTypeId = await ws.addEventType();

  const set = await harness.request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: { booking_event_type_id: eventTypeId.toUpperCase() },
  });
  assert.equal(set.status, 200, set.raw);
  assert.equal(set.body.booking_event_type_id, eventTypeId);
  assert.equal(set.body.booking_url, `http://localhost:3000/book/${eventTypeId}?video=${videoId}`);
  const read = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(read.body.booking_event_type_id, eventTypeId);
  assert.equal(read.body.booking_url, set.body.booking_url);

  const again = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { booking_event_type_id: eventTypeId } });
  assert.equal(again.status, 200);
  const cleared = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { booking_event_type_id: null } });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.booking_event_type_id, null);
  assert.equal(cleared.body.booking_url, null);

  const events = await harness.database.db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'video.updated')
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    events.map((event) => (event.data as { changed: string[] }).changed),
    [['booking_event_type_id'], ['booking_event_type_id']],
    'setting the same type again changes nothing',
  );
});

test('another workspace’s or an unknown event type is not_found; an inactive one a problem, named with the input’s other problems', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour' });
  const patch = (body: Record<string, unknown>, token = ws.key, id = videoId) =>
    harness.request('PATCH', `/v1/videos/${id}`, { token, body });

  // Beside a problem of the input's shape, the unknown id is one of the 400's problems …
  const foreignId = await other.addEventType();
  const foreign = await patch({ booking_event_type_id: foreignId, title: '' });
  assert.equal(foreign.status, 400, foreign.raw);
  assert.deepEqual(foreign.body.error.details.errors, [
    { field: 'title', problem: foreign.body.error.details.errors[0].problem },
    { field: 'booking_event_type_id', problem: `no event type in this workspace has the id ${foreignId}` },
  ]);
  // … and on a well-formed input it is not_found (SPEC §1), whoever owns it, and nothing changes.
  for (const id of [foreignId, randomUUID()]) {
    const missing = await patch({ booking_event_type_id: id, title: 'Renamed' });
    assert.equal(missing.status, 404, missing.raw);
    assert.equal(missing.body.error.code, 'not_found');
    assert.equal(missing.body.error.message, `No event type with id ${id} in this workspace.`);
    assert.deepEqual(missing.body.error.details.errors, [
      { field: 'booking_event_type_id', problem: `no event type in this workspace has the id ${id}` },
    ]);
  }
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.title, 'Tour');
  const inactive = await patch({ booking_event_type_id: await ws.addEventType({ active: false }) });
  assert.equal(inactive.status, 400);
  assert.deepEqual(inactive.body.error.details.errors, [
    { field: 'booking_event_type_id', problem: 'names an inactive event type; activate it first or choose another' },
  ]);
  const malformed = await patch({ booking_event_type_id: 'call' });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.details.errors[0].field, 'booking_event_type_id');

  const free = await harness.workspace('free');
  const freeVideo = await free.addVideo({ title: 'Free tour' });
  const unentitled = await patch({ booking_event_type_id: await free.addEventType() }, free.key, freeVideo);
  assert.equal(unentitled.status, 400, unentitled.raw);
  assert.deepEqual(unentitled.body.error.details.errors, [
    { field: 'booking_event_type_id', problem: 'needs the scheduling entitlement, which the free plan does not include' },
  ]);
  const freeCleared = await patch({ booking_event_type_id: null }, free.key, freeVideo);
  assert.equal(freeCleared.status, 200, 'removing it is always allowed');
});

test('the watch page links to the booking page below the player, the embed page over it once the video ends, while the type can be booked', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour' });
  const eventTypeId = await ws.addEventType();
  const plain = await harness.request('GET', `/watch/${videoId}`);
  assert.doesNotMatch(plain.raw, /class="cp-book"/);

  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { booking_event_type_id: eventTypeId } });
  const href = `/book/${eventTypeId}?video=${videoId}`;
  const watch = await harness.request('GET', `/watch/${videoId}`);
  assert.equal(watch.status, 200);
  assert.ok(
    watch.raw.includes(`<h1>Tour</h1><a class="cp-book" href="${href}" data-cuepoint-cta="Book a call">Book a call</a></main>`),
    'a plain link under the title',
  );
  const embed = await harness.request('GET', `/embed/${videoId}`);
  assert.ok(
    embed.raw.includes(
      `</video><a class="cp-book" href="${href}" data-cuepoint-cta="Book a call" target="_blank" rel="noopener" data-cuepoint-show="ended" hidden>Book a call</a>`,
    ),
    'over the player, hidden until the end, in a new tab',
  );
  // The page's one inline style is still the one its CSP allows.
  const style = /<style>([^<]*)<\/style>/.exec(watch.raw)?.[1] ?? '';
  assert.ok(String(watch.headers['content-security-policy']).includes(createHash('sha256').update(style).digest('base64')));

  await harness.database.db.updateTable('event_types').set({ active: false }).where('id', '=', eventTypeId).execute();
  assert.doesNotMatch((await harness.request('GET', `/watch/${videoId}`)).raw, /class="cp-book"/, 'an inactive type is not offered');
  await harness.database.db.updateTable('event_types').set({ active: true }).where('id', '=', eventTypeId).execute();
  await harness.database.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', ws.id).execute();
  assert.doesNotMatch((await harness.request('GET', `/embed/${videoId}`)).raw, /class="cp-book"/, 'nor after a move to the free plan');
});
