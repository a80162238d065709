/**
 * The public endpoints a viewer's browser posts to take the fuzz suite's attacks too: POST /collect
 * (every field of a batch and of its events) and the route player's events and lead form. Each answer
 * must be a success or a small, documented 4xx, never a 5xx (DESIGN §7).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CollectBatch } from '../../src/domains/viewing/collect-batch.ts';
import { startTestApp } from '../helpers/app.ts';
import { RAW_MARK, report, VALUE_ATTACKS } from '../helpers/fuzz-attacks.ts';
import {
  AttackTally,
  answerProblems,
  HUGE_ARRAY,
  HUGE_OBJECT,
  LONG_ARRAY,
  nestedArrayText,
  RAW_NUMBERS,
  WIDE_OBJECT,
} from '../helpers/hostile-inputs.ts';
import { pageData, wireStep } from '../helpers/routes.ts';
import { BROWSER, pageView, viewer } from '../helpers/viewing.ts';

test('POST /collect: every attack on every field of a batch answers success or a small, documented 4xx', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ duration_seconds: 60 });
  const view = pageView(video);
  const tally = new AttackTally();
  const failures: string[] = [];
  let sequence = 1;
  const post = async (attack: string, payload: string) => {
    const started = performance.now();
    const res = await harness.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload,
    });
    const ms = performance.now() - started;
    const bytes = Buffer.byteLength(res.body);
    tally.record(attack, res.statusCode, ms, bytes);
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    const found = answerProblems(res.statusCode, bytes, body);
    if (found.length > 0) failures.push(`${attack}: ${payload.slice(0, 100)} ${found.join(', ')}: ${res.body.slice(0, 300)}`);
  };
  // A batch is at most 64 KiB: the large values are sized to be read and refused, not cut off at 413.
  const collectAttacks: [string, unknown[]][] = VALUE_ATTACKS.map(([attack, values]) => [
    attack,
    attack === 'huge arrays'
      ? [HUGE_ARRAY.slice(0, 12_000), LONG_ARRAY]
      : attack === 'huge objects'
        ? [Object.fromEntries(Object.entries(HUGE_OBJECT).slice(0, 4_000)), WIDE_OBJECT]
        : values,
  ]);
  const batch = () => ({ token: view.token, viewer_id: viewer('fuzz'), sequence: sequence++, events: [{ type: 'play', position: 1 }] });
  const event = { type: 'progress', position: 1, from: 0, to: 1, ranges: [[0, 1]], label: 'Book a call' };
  await post('unknown fields', JSON.stringify({ ...batch(), unexpected_field: 1 }));
  for (const [attack, values] of collectAttacks) {
    for (const value of values) {
      for (const field of Object.keys(CollectBatch.properties)) await post(attack, JSON.stringify({ ...batch(), [field]: value }));
      for (const field of Object.keys(event)) await post(attack, JSON.stringify({ ...batch(), events: [{ ...event, [field]: value }] }));
      await post(attack, JSON.stringify({ ...batch(), events: [{ ...event, ranges: [[value, 2]] }] }));
    }
  }
  for (const raw of RAW_NUMBERS) {
    for (const field of ['sequence', 'position', 'from', 'to']) {
      const payload = field === 'sequence' ? { ...batch(), sequence: RAW_MARK } : { ...batch(), events: [{ ...event, [field]: RAW_MARK }] };
      await post('oversized numbers', JSON.stringify(payload).replace(`"${RAW_MARK}"`, raw));
    }
  }
  for (const depth of [3_000, 100_000]) await post('depth bombs', nestedArrayText(depth));
  await post('depth bombs', `{"token":${nestedArrayText(3_000)}}`);
  await post('huge arrays', JSON.stringify({ ...batch(), events: Array.from({ length: 600 }, () => event) }));
  await post('huge arrays', JSON.stringify({ ...batch(), events: [{ ...event, ranges: Array.from({ length: 4_000 }, () => [0, 1]) }] }));
  await post('prototype property names', '{"__proto__":{"polluted":true}}');
  report(t, tally, '/collect');
  assert.ok(tally.total > 500, `sent ${tally.total} batches`);
  assert.deepEqual(failures, []);
});

test('the route player’s endpoints: every attack on every field of an events batch and a lead form answers success or a small 4xx', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await ws.addRoute({ status: 'live' });
  const entry = route.stepIds[0] as string;
  const [choice] = await wireStep(harness, ws.id, route, entry, 'Which?', [{ label: 'Talk to us', target: 'lead_form' }]);
  const page = await harness.app.inject({ method: 'GET', url: `/r/${route.id}` });
  const { token } = pageData(page.body);
  const tally = new AttackTally();
  const failures: string[] = [];
  const post = async (attack: string, path: string, payload: string) => {
    const started = performance.now();
    const res = await harness.app.inject({
      method: 'POST',
      url: `/r/${route.id}/${path}`,
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload,
    });
    const bytes = Buffer.byteLength(res.body);
    tally.record(attack, res.statusCode, performance.now() - started, bytes);
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    const found = answerProblems(res.statusCode, bytes, body);
    if (found.length > 0) failures.push(`${attack}: ${path} ${payload.slice(0, 100)} ${found.join(', ')}: ${res.body.slice(0, 300)}`);
  };
  // The bodies are at most 16 and 8 KiB: large values are sized to be read and refused, not cut off at 413.
  const attacks: [string, unknown[]][] = VALUE_ATTACKS.map(([attack, values]) => [
    attack,
    attack === 'huge arrays' ? [HUGE_ARRAY.slice(0, 2_000)] : attack === 'huge objects' ? [WIDE_OBJECT] : values,
  ]);
  const events = { token, viewer_id: viewer('fuzz-route'), events: [{ type: 'step', index: 0, step_id: entry }] };
  const event = { type: 'choice', index: 0, step_id: entry, choice_id: choice };
  const lead = { token, viewer_id: viewer('fuzz-route'), index: 0, step_id: entry, email: 'fuzz@example.com', first_name: 'Fuzz' };
  await post('unknown fields', 'events', JSON.stringify({ ...events, unexpected_field: 1 }));
  for (const [attack, values] of attacks) {
    for (const value of values) {
      for (const field of Object.keys(events)) await post(attack, 'events', JSON.stringify({ ...events, [field]: value }));
      for (const field of Object.keys(event))
        await post(attack, 'events', JSON.stringify({ ...events, events: [{ ...event, [field]: value }] }));
      for (const field of Object.keys(lead)) await post(attack, 'lead', JSON.stringify({ ...lead, [field]: value }));
    }
  }
  for (const depth of [3_000, 100_000]) await post('depth bombs', 'events', nestedArrayText(depth));
  await post('huge arrays', 'events', JSON.stringify({ ...events, events: Array.from({ length: 300 }, () => event) }));
  await post('prototype property names', 'lead', '{"__proto__":{"polluted":true}}');
  report(t, tally, '/r/{route_id}');
  assert.ok(tally.total > 500, `sent ${tally.total} requests`);
  assert.deepEqual(failures, []);
});
