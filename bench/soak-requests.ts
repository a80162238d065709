/**
 * The requests of the soak (bench/soak.ts), each as its caller sends it, with the answer it must
 * get: a viewer's watch page, viewing batches and lead form; the REST reads and writes an
 * integration makes with an API key; an assistant's MCP tool call. Each answer is classed, so the
 * soak can fail on what must never happen (a 5xx, no answer, a wrong answer) while counting a 429 as
 * the rate limits doing their job.
 */
import type { Pool } from 'undici';
import { BROWSER } from './collect-request.ts';

export const REQUEST_KINDS = [
  'watch_page',
  'collect',
  'lead_capture',
  'list_videos',
  'analytics_summary',
  'list_leads',
  'upsert_lead',
  'record_outcome',
  'mcp_list_videos',
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** ok, or why not: limited (429, expected), server_error (5xx), network (no answer), wrong (any other answer). */
export type Verdict = 'ok' | 'limited' | 'server_error' | 'network' | 'wrong';

export interface Answer {
  verdict: Verdict;
  /** What was wrong, for the report's examples. */
  detail?: string;
  /** The parsed JSON body of an ok answer, for the caller that needs something from it. */
  body?: unknown;
  text: string;
}

interface Sent {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Sends one request and classes its answer: `expect` says whether an answer of an expected status is right. */
export async function send(pool: Pool, request: Sent, expected: number[], expect: (text: string) => string | undefined): Promise<Answer> {
  let status: number;
  let text: string;
  try {
    const response = await pool.request({
      method: request.method,
      path: request.path,
      headers: {
        'user-agent': BROWSER,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    return { verdict: 'network', detail: (error as Error).message, text: '' };
  }
  if (status === 429) return { verdict: 'limited', text };
  if (status >= 500) return { verdict: 'server_error', detail: `${status} ${text.slice(0, 300)}`, text };
  if (!expected.includes(status)) return { verdict: 'wrong', detail: `${status} ${text.slice(0, 300)}`, text };
  const problem = expect(text);
  return problem ? { verdict: 'wrong', detail: `${status}: ${problem}: ${text.slice(0, 200)}`, text } : { verdict: 'ok', text };
}

/** A JSON body's check: `check` answers what is wrong with it, or nothing. */
function json<T>(check: (body: T) => string | undefined): (text: string) => string | undefined {
  return (text) => {
    try {
      return check(JSON.parse(text) as T);
    } catch {
      return 'not JSON';
    }
  };
}

const TOKEN = /data-cuepoint-token="([^"]+)"/;

export async function watchPage(pool: Pool, videoId: string): Promise<Answer & { token?: string }> {
  const answer = await send(pool, { method: 'GET', path: `/watch/${videoId}`, headers: { accept: 'text/html' } }, [200], (text) =>
    TOKEN.test(text) ? undefined : 'no viewing token in the page',
  );
  return { ...answer, token: TOKEN.exec(answer.text)?.[1] };
}

export function collect(pool: Pool, batch: { token: string; viewer_id: string; sequence: number; events: unknown[] }): Promise<Answer> {
  return send(
    pool,
    { method: 'POST', path: '/collect', body: batch },
    [200],
    json<{ duplicate?: boolean }>((body) => (body.duplicate === false ? undefined : 'a first send not answered duplicate: false')),
  );
}

export function leadCapture(pool: Pool, form: { token: string; viewer_id: string; email: string; first_name: string }): Promise<Answer> {
  return send(pool, { method: 'POST', path: '/leads/capture', body: form }, [202], () => undefined);
}

/** The REST API with the workspace's key. */
export function api(apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}` };
  return {
    listVideos: (pool: Pool, seeded: number) =>
      send(
        pool,
        { method: 'GET', path: '/v1/videos?limit=20', headers },
        [200],
        json<{ videos?: unknown[]; pagination?: { total?: number } }>((body) =>
          Array.isArray(body.videos) && (body.pagination?.total ?? 0) >= seeded ? undefined : `not the ${seeded} videos seeded`,
        ),
      ),
    analyticsSummary: (pool: Pool) =>
      send(
        pool,
        { method: 'GET', path: '/v1/analytics/summary', headers },
        [200],
        json<Record<string, unknown>>((body) => (typeof body === 'object' && body !== null ? undefined : 'not an object')),
      ),
    listLeads: (pool: Pool) =>
      send(
        pool,
        { method: 'GET', path: '/v1/leads?limit=20', headers },
        [200],
        json<{ leads?: unknown[] }>((body) => (Array.isArray(body.leads) ? undefined : 'no leads list')),
      ),
    upsertLead: (pool: Pool, lead: { email: string; first_name: string; tags: string[] }) =>
      send(
        pool,
        { method: 'PUT', path: '/v1/leads', headers, body: lead },
        [200, 201],
        // The answer masks personal fields (an API key sees `s***@e***.com`): the tags sent are checked instead.
        json<{ lead_id?: string; tags?: string[] }>((body) =>
          typeof body.lead_id === 'string' && lead.tags.every((tag) => body.tags?.includes(tag)) ? undefined : 'not the lead sent',
        ),
      ),
    recordOutcome: (pool: Pool, outcome: { kind: 'purchase'; amount: number; currency: string; email: string; external_id: string }) =>
      send(
        pool,
        { method: 'POST', path: '/v1/outcomes', headers, body: outcome },
        [201],
        json<{ created?: boolean }>((body) => (body.created === true ? undefined : 'a new external_id not recorded as new')),
      ),
    /** Turns on the lead form of a video, so its watch page shows the form and /leads/capture takes it. */
    enableLeadForm: (pool: Pool, videoId: string) =>
      send(
        pool,
        { method: 'PATCH', path: `/v1/videos/${videoId}`, headers, body: { lead_form: { placement: 'end', fields: ['first_name'] } } },
        [200],
        () => undefined,
      ),
  };
}

/** tools/call list_videos on the stateless MCP endpoint: one JSON-RPC message, one POST, a JSON answer. */
export function mcpListVideos(pool: Pool, apiKey: string, id: number): Promise<Answer> {
  return send(
    pool,
    {
      method: 'POST',
      path: '/mcp',
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_videos', arguments: { limit: 10 } } },
    },
    [200],
    json<{ id?: number; result?: { isError?: boolean; content?: unknown[] } }>((body) => {
      if (body.id !== id) return 'another id answered';
      if (!body.result || body.result.isError) return 'no result, or a tool error';
      return Array.isArray(body.result.content) ? undefined : 'no content';
    }),
  );
}
