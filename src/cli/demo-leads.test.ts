/**
 * The demo's leads, on the demo library and its ninety days of viewing: forms on some videos, leads
 * captured through captureLead spread over the period with their browsers linked and counted on the
 * videos, and a sales team's notes and statuses on some of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../test/helpers/app.ts';
import { createMediaLinks } from '../media/media-links.ts';
import { playDemoLeads } from './demo-leads.ts';
import { playDemoViewing } from './demo-viewing.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';

const NOW = new Date('2026-11-24T16:00:00.000Z');

test('seed --demo leads: captured over the ninety days through the form code, with notes and statuses', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', 'http://localhost:3000');
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now: NOW, links });
  await playDemoViewing(db, watchable, NOW);
  const count = await playDemoLeads(db, ws.id, watchable, NOW);
  assert.ok(count >= 10, `${count} leads`);

  const forms = await db
    .selectFrom('videos')
    .select('lead_form')
    .where('workspace_id', '=', ws.id)
    .where('lead_form', 'is not', null)
    .execute();
  const placements = new Set(forms.map((row) => (row.lead_form as { placement: string }).placement));
  assert.deepEqual([...placements].sort(), ['at_second', 'before', 'end']);

  const leads = await db.selectFrom('leads').selectAll().where('workspace_id', '=', ws.id).execute();
  assert.equal(leads.length, count);
  assert.ok(leads.every((lead) => lead.source === 'video' && lead.source_video_id !== null));
  const days = new Set(leads.map((lead) => lead.created_at.toISOString().slice(0, 10)));
  assert.ok(days.size >= 10, `captured on ${days.size} different days`);
  const oldest = Math.min(...leads.map((lead) => lead.created_at.getTime()));
  assert.ok(NOW.getTime() - oldest > 45 * 86_400_000, 'the oldest leads are from weeks ago');
  assert.ok(new Set(leads.map((lead) => lead.status)).size >= 3, 'several statuses');

  const viewerLinks = await db.selectFrom('lead_viewers').select('lead_id').where('workspace_id', '=', ws.id).execute();
  assert.ok(viewerLinks.length >= count, 'every lead has its browser');
  const kinds = await db.selectFrom('lead_activities').select('kind').where('workspace_id', '=', ws.id).execute();
  const byKind = (kind: string) => kinds.filter((row) => row.kind === kind).length;
  assert.ok(byKind('form_submitted') >= count);
  assert.ok(byKind('note') > 0 && byKind('status_changed') > 0);
  const stats = await db.selectFrom('video_stats').select('leads').where('workspace_id', '=', ws.id).execute();
  const counted = stats.reduce((sum, row) => sum + row.leads, 0);
  assert.ok(counted >= count, `${counted} counted on videos for ${count} leads`);
  const types = await harness.eventTypes(ws.id);
  assert.equal(types.filter((type) => type === 'lead.created').length, count);
});
