/**
 * Text the database cannot store is refused at the edge, on every surface, naming the field (issue
 * 26: a lone UTF-16 surrogate answered 500 wherever it landed in a JSON column: lead notes and custom
 * fields, transcript cues, /collect's labels with no key at all, MCP's upsert_lead as -32603). Every
 * place an operation's input can hold text (each field, nested field, array item, and key of an open
 * object; test/helpers/text-slots.ts) is sent a lone surrogate over REST (body fields: a URL cannot
 * carry one) and over MCP (every field, query and path ones too), and every public endpoint's body the
 * same. Each answer is a 400 naming that place, never a 500.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { TObject } from 'typebox';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import { type AnyOperation, pathParams } from '../src/core/operation.ts';
import { CollectBatch } from '../src/domains/viewing/collect-batch.ts';
import { BookingBody } from '../src/transports/public/booking/booking-bodies.ts';
import { ChannelEventsBody } from '../src/transports/public/channel/channel-bodies.ts';
import { RouteEventsBody, RouteLeadBody } from '../src/transports/public/route-player/route-player-bodies.ts';
import { LeadCaptureBody } from '../src/transports/public/watch/lead-capture.ts';
import { startTestApp } from './helpers/app.ts';
import { callTool, connectMcp } from './helpers/mcp-client.ts';
import { restRequest } from './helpers/operation-request.ts';
import { textSlots } from './helpers/text-slots.ts';
import { BROWSER, viewer } from './helpers/viewing.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

/** A lone high surrogate after a letter, as `"a\ud800"` in JSON; as a key, named with its escape. */
const LONE = 'a\uD800';
const LONE_KEY = 'a\\uD800';
const REFUSED = /^(holds|is a field name with) invalid characters: a lone UTF-16 surrogate \(\\uD800, character 2 of the (text|name)\)/;

type Problem = { field: string; problem: string };

/** What is wrong with an answer to a slot: anything but invalid_request naming the slot's field as holding a lone surrogate. */
function answerProblem(
  status: number,
  error: { code?: string; details?: { errors?: Problem[] } } | undefined,
  field: string,
): string | undefined {
  if (status !== 400 || error?.code !== 'invalid_request') return `answered ${status} ${error?.code ?? ''}`;
  const named = (error.details?.errors ?? []).find((p) => p.field === field);
  if (!named) return `did not name ${field}: ${JSON.stringify(error.details?.errors?.map((p) => p.field))}`;
  if (!REFUSED.test(named.problem)) return `named ${field} for another reason: ${named.problem}`;
  return undefined;
}

function exampleOf(op: AnyOperation, videoId: string): Record<string, unknown> {
  const example = { ...(op.example as Record<string, unknown>) };
  if ('video_id' in example) example.video_id = videoId;
  return example;
}

const takesBody = (op: AnyOperation) => op.method !== 'GET' && op.method !== 'DELETE';
const topField = (field: string) => /^[^.[]*/.exec(field)?.[0] ?? field;

test('REST: a lone surrogate anywhere in any body of any operation is a 400 naming its field', async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace('business');
  const video = await ws.addVideo();
  const failures: string[] = [];
  let sent = 0;
  for (const op of catalog.filter(takesBody)) {
    for (const slot of textSlots(op.input, exampleOf(op, video), LONE, LONE_KEY)) {
      if (pathParams(op.path).includes(topField(slot.field))) continue; // a path is a URL: it cannot carry one
      const req = restRequest(op, slot.input);
      const res = await request(req.method, req.url, { token: ws.key, body: req.body });
      sent++;
      const problem = answerProblem(res.status, res.body?.error, slot.field);
      if (problem) failures.push(`${op.name} ${slot.field}: ${problem}`);
    }
  }
  assert.ok(sent > 100, `sent ${sent} requests`);
  assert.deepEqual(failures, []);
});

test('MCP: a lone surrogate anywhere in the arguments of any tool is a tool error naming its field', async (t) => {
  const { app, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace('business');
  const video = await ws.addVideo();
  const client = await connectMcp(t, app, ws.key);
  const failures: string[] = [];
  let sent = 0;
  for (const op of catalog) {
    for (const slot of textSlots(op.input, exampleOf(op, video), LONE, LONE_KEY)) {
      sent++;
      try {
        const result = await callTool(client, op.name, slot.input);
        const problem = result.isError ? answerProblem(400, result.structuredContent?.error, slot.field) : 'succeeded';
        if (problem) failures.push(`${op.name} ${slot.field}: ${problem}`);
      } catch (error) {
        failures.push(`${op.name} ${slot.field}: threw ${(error as Error).message.slice(0, 200)}`);
      }
    }
  }
  assert.ok(sent > 200, `sent ${sent} tool calls`);
  assert.deepEqual(failures, []);
});

test('the public endpoints: a lone surrogate anywhere in a body is a 400 naming its field, before any token or id is looked at', async (t) => {
  const harness = await startTestApp(t);
  const id = randomUUID();
  const browser = viewer('lone-surrogate');
  const surfaces: [string, TObject, Record<string, unknown>][] = [
    [
      '/collect',
      CollectBatch,
      { token: 'token', viewer_id: browser, sequence: 1, events: [{ type: 'cta_click', position: 1, label: 'Buy now' }] },
    ],
    ['/leads/capture', LeadCaptureBody, { token: 'token', viewer_id: browser, email: 'ada@example.com', first_name: 'Ada' }],
    [
      `/r/${id}/events`,
      RouteEventsBody,
      { token: 'token', viewer_id: browser, events: [{ type: 'choice', index: 0, step_id: id, choice_id: id }] },
    ],
    [
      `/r/${id}/lead`,
      RouteLeadBody,
      { token: 'token', viewer_id: browser, index: 0, step_id: id, email: 'ada@example.com', first_name: 'Ada' },
    ],
    [
      `/book/${id}`,
      BookingBody,
      { start: '2030-01-07T10:00:00Z', name: 'Ada', email: 'ada@example.com', phone: '+44 20 7946 0000', timezone: 'UTC', video_id: id },
    ],
    ['/c/some-channel/events', ChannelEventsBody, { view_id: id, viewer_id: browser, events: [{ type: 'open', kind: 'video', id }] }],
  ];
  const failures: string[] = [];
  for (const [url, schema, sample] of surfaces) {
    const slots = textSlots(schema, sample, LONE, LONE_KEY);
    assert.ok(slots.length >= Object.keys(sample).length, url);
    for (const slot of slots) {
      const res = await harness.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
        payload: JSON.stringify(slot.input),
      });
      const problem = answerProblem(res.statusCode, res.json()?.error, slot.field);
      if (problem) failures.push(`${url} ${slot.field}: ${problem}`);
    }
  }
  assert.deepEqual(failures, []);
});
