/**
 * Calendar days at the edges of what a date can name, read in the workspace's time zone, never make a
 * 500 (issue 26: get_video_analytics?to_date=9999-12-31 answered 500 in UTC and every zone west of
 * it: the day ends in year 10000, an instant the database was then sent and refused). Every operation
 * taking a date (`format: date`, a day in the workspace time zone) is sent the first and last days
 * there are, alone and in pairs, in workspaces from UTC+14 to UTC−11.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import { startTestApp } from './helpers/app.ts';
import { restRequest } from './helpers/operation-request.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

const TIME_ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Los_Angeles', 'Pacific/Chatham', 'Asia/Kathmandu'];
const EDGE_DAYS = ['1970-01-01', '1970-01-02', '2000-02-29', '9999-12-30', '9999-12-31'];

const dateFields = (properties: Record<string, { format?: string }>) =>
  Object.entries(properties)
    .filter(([, schema]) => schema.format === 'date')
    .map(([name]) => name);

const DATED = catalog.filter((op) => dateFields(op.input.properties).length > 0);

test('operations taking dates: the first and last days there are, in every time zone, never answer 5xx', async (t) => {
  assert.deepEqual(
    DATED.map((op) => op.name).sort(),
    ['get_analytics_daily', 'get_video_analytics', 'list_leads', 'list_outcomes'],
    'the operations this covers (a new one is covered by itself; this list says which are)',
  );
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace();
  const video = await ws.addVideo({ duration_seconds: 60 });
  await ws.addOutcome({ last_touch_video_id: video });
  await ws.addLead();
  const failures: string[] = [];
  let sent = 0;
  for (const timezone of TIME_ZONES) {
    const set = await request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone } });
    assert.equal(set.status, 200, set.raw);
    for (const op of DATED) {
      const fields = dateFields(op.input.properties);
      const base = Object.fromEntries(Object.entries(op.example as Record<string, unknown>).filter(([name]) => !fields.includes(name)));
      if ('video_id' in base) base.video_id = video;
      const inputs = [
        ...fields.flatMap((field) => EDGE_DAYS.map((day) => ({ [field]: day }))),
        ...(fields.length === 2
          ? EDGE_DAYS.flatMap((from) => EDGE_DAYS.map((to) => ({ [fields[0] as string]: from, [fields[1] as string]: to })))
          : []),
      ];
      for (const dates of inputs) {
        const req = restRequest(op, { ...base, ...dates });
        const res = await request(req.method, req.url, { token: ws.key });
        sent++;
        if (res.status >= 500) failures.push(`${timezone} ${op.name} ${JSON.stringify(dates)}: ${res.status} ${res.raw.slice(0, 200)}`);
      }
    }
  }
  assert.ok(sent > 500, `sent ${sent} requests`);
  assert.deepEqual(failures, []);
});

test('get_video_analytics to 9999-12-31, the last day there is, answers its 28 days in every time zone', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const video = await ws.addVideo({ duration_seconds: 60 });
  for (const timezone of TIME_ZONES) {
    await request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone } });
    const res = await request('GET', `/v1/videos/${video}/analytics?to_date=9999-12-31`, { token: ws.key });
    assert.equal(res.status, 200, `${timezone}: ${res.raw}`);
    assert.deepEqual(
      [res.body.time_zone, res.body.from_date, res.body.to_date, res.body.daily.length],
      [timezone, '9999-12-04', '9999-12-31', 28],
    );
    assert.equal(res.body.daily.at(-1).date, '9999-12-31');
  }
});
