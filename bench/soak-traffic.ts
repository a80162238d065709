/**
 * The soak's traffic (bench/soak.ts): an open loop at a steady rate, the way real visitors and
 * integrations arrive whatever the server's speed, not a closed loop at the server's maximum (a soak
 * asks what memory does over time, not how fast the server is). `pageViewsPerSecond` scales it all:
 * - a page view: GET /watch/{id} (a fresh viewing token), then a viewing batch every 2 s of real time
 *   (each 5 s of playing) for 1–12 batches, from one of 20,000 viewers; one in ten sends the lead
 *   form at the end (POST /leads/capture, a new address), as a viewer who fills it in;
 * - with the workspace's API key, per page view: 0.25 list_videos, 0.15 each of the analytics summary,
 *   list_leads, upsert_lead (500 addresses, so mostly updates) and record_outcome (a new external_id
 *   each: the ledger grows as it does in use), and 0.25 MCP tools/call list_videos.
 * At 2 page views a second that is about 17 requests a second, 2.2 of them with the key (its plan's
 * limit is 10). Requests beyond MAX_IN_FLIGHT (a server that stopped answering) are skipped and
 * counted, rather than piling up in the load generator's memory.
 */
import type { Pool } from 'undici';
import { prng } from '../src/cli/demo-library.ts';
import {
  type Answer,
  api,
  collect,
  leadCapture,
  mcpListVideos,
  REQUEST_KINDS,
  type RequestKind,
  type Verdict,
  watchPage,
} from './soak-requests.ts';

const BATCH_INTERVAL_MS = 2000;
const BATCH_PLAYED_SECONDS = 5;
const MAX_BATCHES = 12;
const CAPTURE_SHARE = 0.1;
const VIEWERS = 20_000;
const LEAD_ADDRESSES = 500;
const MAX_IN_FLIGHT = 200;
const EXAMPLES = 10;

/** Requests of each kind a page view brings, besides its own page and batches. */
const API_PER_PAGE_VIEW = {
  list_videos: 0.25,
  analytics_summary: 0.15,
  list_leads: 0.15,
  upsert_lead: 0.15,
  record_outcome: 0.15,
  mcp_list_videos: 0.25,
} as const;

export type Counts = Record<RequestKind, Record<Verdict, number>>;

export interface Tally {
  counts: Counts;
  /** Requests not sent because MAX_IN_FLIGHT were still unanswered. */
  skipped: number;
  /** The first few answers that were not ok (429s aside), as `kind: detail`. */
  examples: string[];
}

export interface Traffic {
  tally: Tally;
  /** Stops starting requests and waits for those in flight. */
  stop(): Promise<void>;
}

export function startTraffic(config: {
  pool: Pool;
  apiKey: string;
  videos: { id: string; durationSeconds: number }[];
  pageViewsPerSecond: number;
  /** Makes external ids and addresses unique to this run. */
  runId: string;
}): Traffic {
  const random = prng(2026);
  const rest = api(config.apiKey);
  const tally: Tally = {
    counts: Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, { ok: 0, limited: 0, server_error: 0, network: 0, wrong: 0 }])) as Counts,
    skipped: 0,
    examples: [],
  };
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let serial = 0;

  /** Sends one request unless too many are in flight; answers its answer, or undefined when skipped. */
  const track = async (kind: RequestKind, request: () => Promise<Answer>): Promise<Answer | undefined> => {
    if (inFlight.size >= MAX_IN_FLIGHT) {
      tally.skipped++;
      return undefined;
    }
    const pending = request();
    inFlight.add(pending);
    const answer = await pending.finally(() => inFlight.delete(pending));
    tally.counts[kind][answer.verdict]++;
    if (answer.verdict !== 'ok' && answer.verdict !== 'limited' && tally.examples.length < EXAMPLES)
      tally.examples.push(`${kind}: ${answer.detail ?? answer.verdict}`);
    return answer;
  };

  const pageView = async () => {
    const video = config.videos[Math.floor(random() * config.videos.length)] as { id: string; durationSeconds: number };
    const viewerId = `soak_viewer_${String(Math.floor(random() * VIEWERS)).padStart(6, '0')}`;
    const batches = 1 + Math.floor(random() * MAX_BATCHES);
    const captures = random() < CAPTURE_SHARE;
    const page = (await track('watch_page', () => watchPage(config.pool, video.id))) as (Answer & { token?: string }) | undefined;
    const token = page?.token;
    if (!token) return;
    let position = 0;
    for (let sequence = 1; sequence <= batches && position < video.durationSeconds; sequence++) {
      await new Promise((ok) => setTimeout(ok, BATCH_INTERVAL_MS));
      if (stopped) return;
      const to = Math.min(video.durationSeconds, position + BATCH_PLAYED_SECONDS);
      const events = [
        ...(sequence === 1 ? [{ type: 'play', position: 0 }] : []),
        { type: 'progress', ranges: [[position, to]] },
        ...(sequence === batches || to >= video.durationSeconds ? [{ type: 'pause', position: to }] : []),
      ];
      position = to;
      await track('collect', () => collect(config.pool, { token, viewer_id: viewerId, sequence, events }));
    }
    if (captures && !stopped) {
      const n = ++serial;
      await track('lead_capture', () =>
        leadCapture(config.pool, {
          token,
          viewer_id: viewerId,
          email: `soak-visitor-${config.runId}-${n}@example.com`,
          first_name: 'Soak',
        }),
      );
    }
  };

  const address = () => `soak-lead-${Math.floor(random() * LEAD_ADDRESSES)}@example.com`;
  const apiCalls: Record<keyof typeof API_PER_PAGE_VIEW, () => Promise<unknown>> = {
    list_videos: () => track('list_videos', () => rest.listVideos(config.pool, config.videos.length)),
    analytics_summary: () => track('analytics_summary', () => rest.analyticsSummary(config.pool)),
    list_leads: () => track('list_leads', () => rest.listLeads(config.pool)),
    upsert_lead: () => track('upsert_lead', () => rest.upsertLead(config.pool, { email: address(), first_name: 'Soak', tags: ['soak'] })),
    record_outcome: () => {
      const n = ++serial;
      return track('record_outcome', () =>
        rest.recordOutcome(config.pool, {
          kind: 'purchase',
          amount: 100 + (n % 50) * 100,
          currency: 'USD',
          email: address(),
          external_id: `soak-${config.runId}-${n}`,
        }),
      );
    },
    mcp_list_videos: () => track('mcp_list_videos', () => mcpListVideos(config.pool, config.apiKey, ++serial)),
  };

  const running = new Set<Promise<unknown>>();
  const every = (perSecond: number, action: () => Promise<unknown>) =>
    setInterval(() => {
      const started = action().catch((error: Error) => {
        if (tally.examples.length < EXAMPLES) tally.examples.push(`load generator: ${error.message}`);
      });
      running.add(started);
      void started.finally(() => running.delete(started));
    }, 1000 / perSecond);
  const timers = [
    every(config.pageViewsPerSecond, pageView),
    ...Object.entries(API_PER_PAGE_VIEW).map(([kind, share]) =>
      every(config.pageViewsPerSecond * share, apiCalls[kind as keyof typeof API_PER_PAGE_VIEW]),
    ),
  ];

  return {
    tally,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...running]);
    },
  };
}

/** Every count, summed: all requests, and those of each verdict. */
export function totals(counts: Counts): Record<Verdict | 'requests', number> {
  const sum = { requests: 0, ok: 0, limited: 0, server_error: 0, network: 0, wrong: 0 };
  for (const verdicts of Object.values(counts))
    for (const [verdict, n] of Object.entries(verdicts)) {
      sum[verdict as Verdict] += n;
      sum.requests += n;
    }
  return sum;
}

/** A copy of the counts, to take the difference over a phase. */
export function snapshot(counts: Counts): Counts {
  return structuredClone(counts);
}
