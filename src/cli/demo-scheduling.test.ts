/**
 * The demo's scheduling, on the demo library, its viewing and its leads: event types with hours,
 * overrides and an inactive one, calls booked through bookSlot by some of the leads over the period
 * and by new invitees for the days ahead, past and upcoming, one canceled by the workspace, one by
 * its invitee, one moved; each booking with its lead and its booked_call ledger entry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../test/helpers/app.ts';
import { createMediaLinks } from '../media/media-links.ts';
import { playDemoLeads } from './demo-leads.ts';
import { playDemoScheduling } from './demo-scheduling.ts';
import { playDemoViewing } from './demo-viewing.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';

const NOW = new Date('2026-11-24T16:00:00.000Z');

test('seed --demo scheduling: event types, past and upcoming calls booked by leads, cancels and a move', {
  timeout: 300_000,
}, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', 'http://localhost:3000');
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now: NOW, links });
  await playDemoViewing(db, watchable, NOW);
  await playDemoLeads(db, ws.id, watchable, NOW);
  const { eventTypes, bookings } = await playDemoScheduling(
    db,
    ws.id,
    watchable.map((video) => video.id),
    NOW,
  );
  assert.equal(eventTypes, 3);
  assert.ok(bookings >= 12, `${bookings} bookings`);

  const types = await harness.request('GET', '/v1/scheduling/event-types', { token: ws.key });
  assert.equal(types.status, 200, types.raw);
  assert.deepEqual(types.body.event_types.map((type: { name: string; active: boolean }) => `${type.name}:${type.active}`).sort(), [
    'Intro call:true',
    'Office hours:false',
    'Product demo for teams:true',
  ]);
  const intro = types.body.event_types.find((type: { name: string }) => type.name === 'Intro call');
  assert.equal(intro.date_overrides.length, 2, 'a closed day and a short day ahead');

  const rows = await db.selectFrom('bookings').selectAll().where('workspace_id', '=', ws.id).execute();
  assert.equal(rows.length, bookings);
  const past = rows.filter((row) => row.starts_at.getTime() < NOW.getTime());
  const upcoming = rows.filter((row) => row.starts_at.getTime() > NOW.getTime());
  const confirmedAhead = upcoming.filter((row) => row.status === 'confirmed');
  assert.ok(past.length >= 5 && confirmedAhead.length >= 4, `${past.length} past, ${confirmedAhead.length} confirmed upcoming`);
  assert.deepEqual(
    rows
      .filter((row) => row.status === 'canceled')
      .map((row) => row.canceled_by)
      .sort(),
    ['invitee', 'workspace'],
  );
  assert.equal(rows.filter((row) => row.rescheduled_at !== null).length, 1, 'one call was moved');
  assert.ok(
    rows.every((row) => row.lead_id !== null && row.outcome_id !== null),
    'every booking has its lead and ledger entry',
  );
  assert.ok(
    rows.some((row) => row.video_id !== null),
    'calls are booked from videos',
  );

  // The API's past and upcoming are read at the real clock, not the demo's: all of them, then.
  const listed = await harness.request('GET', '/v1/bookings?scope=all&limit=5', { token: ws.key });
  assert.equal(listed.status, 200, listed.raw);
  assert.equal(listed.body.pagination.total, rows.length);

  const ledger = await db
    .selectFrom('outcomes')
    .select(['kind', 'amount', 'status'])
    .where('workspace_id', '=', ws.id)
    .where('source', '=', 'booking')
    .execute();
  assert.equal(ledger.length, bookings);
  assert.ok(
    ledger.every((entry) => entry.kind === 'booked_call'),
    'booked calls',
  );
  assert.ok(
    ledger.some((entry) => entry.amount === 15_000),
    'a product demo is worth its value',
  );
  assert.equal(ledger.filter((entry) => entry.status === 'canceled').length, 2);
});
