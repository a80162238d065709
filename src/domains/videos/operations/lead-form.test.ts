/**
 * The lead form setting on update_video and get_video: normalized with defaults, every problem
 * named at once (schema bounds and the rules tied to placement and length), off with null, and the
 * change in video.updated. Over REST and MCP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';

test('update_video sets, changes and turns off the lead form; get_video and video.updated show it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const id = await ws.addVideo({ title: 'Tour', duration_seconds: 60 });

  const set = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 12.5, fields: ['phone', 'first_name'], headline: ' Stay in touch ' } },
  });
  assert.equal(set.status, 200, set.raw);
  assert.deepEqual(set.body.lead_form, {
    placement: 'at_second',
    skippable: false,
    at_second: 12.5,
    fields: ['first_name', 'phone'],
    headline: 'Stay in touch',
    button_text: 'Send',
  });
  const read = await harness.request('GET', `/v1/videos/${id}`, { token: ws.key });
  assert.deepEqual(read.body.lead_form, set.body.lead_form);

  // The same setting again changes nothing and records no event.
  const again = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 12.5, fields: ['first_name', 'phone'], headline: 'Stay in touch' } },
  });
  assert.equal(again.status, 200);
  const gate = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { lead_form: { placement: 'before', skippable: true, button_text: 'Watch now' } },
  });
  assert.deepEqual(gate.body.lead_form, {
    placement: 'before',
    skippable: true,
    at_second: null,
    fields: [],
    headline: 'Want more like this? Leave your email.',
    button_text: 'Watch now',
  });
  const off = await harness.request('PATCH', `/v1/videos/${id}`, { token: ws.key, body: { lead_form: null } });
  assert.equal(off.body.lead_form, null);

  const events = await harness.database.db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'video.updated')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const updates = events.map((event) => event.data as { changed: string[]; video: { lead_form: unknown } });
  assert.equal(updates.length, 3);
  assert.deepEqual(
    updates.map((update) => update.changed),
    [['lead_form'], ['lead_form'], ['lead_form']],
  );
  assert.equal(updates[2]?.video.lead_form, null);
});

test('update_video names every lead form problem at once, over REST and MCP, and changes nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const id = await ws.addVideo({ title: 'Short', duration_seconds: 30 });
  const processing = await ws.addVideo({ title: 'Not probed', status: 'processing', duration_seconds: null });

  const schema = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: {
      lead_form: { placement: 'middle', fields: ['email', 'company'], headline: 'x'.repeat(121), button_text: ' ', colour: 'red' },
    },
  });
  assert.equal(schema.status, 400);
  assert.deepEqual(schema.body.error.details.errors.map((error: { field: string }) => error.field).sort(), [
    'lead_form.button_text',
    'lead_form.colour',
    'lead_form.fields[0]',
    'lead_form.fields[1]',
    'lead_form.headline',
    'lead_form.placement',
  ]);

  const rules = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { title: 'Renamed', lead_form: { placement: 'end', skippable: true, at_second: 3 } },
  });
  assert.equal(rules.status, 400);
  assert.deepEqual(rules.body.error.details.errors.map((error: { field: string }) => error.field).sort(), [
    'lead_form.at_second',
    'lead_form.skippable',
  ]);
  const outside = await harness.request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 30 } },
  });
  assert.equal(outside.status, 400);
  assert.match(outside.body.error.message, /lead_form\.at_second: must be within the video: less than its 30 seconds/);
  const missing = await harness.request('PATCH', `/v1/videos/${id}`, { token: ws.key, body: { lead_form: { placement: 'at_second' } } });
  assert.match(missing.body.error.message, /at_second: is required when placement is at_second/);
  const unknownLength = await harness.request('PATCH', `/v1/videos/${processing}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 2 } },
  });
  assert.match(unknownLength.body.error.message, /length is not known yet/);

  const unchanged = await harness.request('GET', `/v1/videos/${id}`, { token: ws.key });
  assert.equal(unchanged.body.title, 'Short');
  assert.equal(unchanged.body.lead_form, null);

  // MCP: the same rules, the same names, as a tool error the assistant can fix; then a valid call.
  const client = await connectMcp(t, harness.app, ws.key);
  const refused = await callTool(client, 'update_video', { video_id: id, lead_form: { placement: 'at_second', at_second: 45 } });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /lead_form\.at_second/);
  const accepted = await callTool(client, 'update_video', { video_id: id, lead_form: { placement: 'end', fields: ['last_name'] } });
  assert.equal(accepted.isError, undefined);
  assert.deepEqual((accepted.structuredContent as { lead_form: unknown }).lead_form, {
    placement: 'end',
    skippable: false,
    at_second: null,
    fields: ['last_name'],
    headline: 'Want more like this? Leave your email.',
    button_text: 'Send',
  });
});
