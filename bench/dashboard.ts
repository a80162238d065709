/**
 * `npm run bench -- dashboard` (issue 28): what each dashboard page costs the server, how many
 * statements it sends to the database, and how much JavaScript it makes a browser load.
 *
 * A real service (`cuepoint start`, embedded database) on a data dir filled by `cuepoint seed --demo`
 * (BENCH_DASHBOARD_DEMO=0: an empty first start instead, for the smoke run); its owner's account is
 * made from the seed's link and signed in. The pages: home, each area of the navigation, and the
 * first video's, lead's and route's own pages, a search and the account. Each page is fetched
 * BENCH_DASHBOARD_WARMUP times, then BENCH_DASHBOARD_REQUESTS times one after the other; its latency
 * (loopback, so the server's time plus a little HTTP) gives p50/p95, its `Server-Timing` header the
 * statements it sent (kit/page-route.ts counts them), and the scripts it links are fetched and
 * gzip-compressed for their size. A page answering 404 is listed as missing.
 *
 * Targets (reports, not gates): p95 at most 50 ms per page, at most 50 KB of compressed JavaScript per
 * page. The statements per page are reported for a person to judge against its widgets.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { hashPassword } from '../src/domains/people/index.ts';
import { seedAnalyticsWorkspace } from './analytics-seed.ts';
import { benchDatabaseUrl } from './bench-settings.ts';
import { DEMO_OWNER, OWNER_LINK, seedDemo, signInDemoOwner, signInWithPassword } from './demo-owner.ts';
import { describeMachine } from './machine.ts';
import { loads, startReadBench } from './read-bench-service.ts';
import { writeResultFile } from './result-file.ts';
import { startService } from './service-process.ts';

const WARMUP = Number(process.env.BENCH_DASHBOARD_WARMUP ?? '5');
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? '40');
const DEMO = process.env.BENCH_DASHBOARD_DEMO !== '0';
/** 0: the demo (or an empty start); more: that many sessions in a bulk-seeded workspace on PostgreSQL. */
const SESSIONS = Number(process.env.BENCH_DASHBOARD_SESSIONS ?? '0');

type Log = (line: string) => void;

interface PageFigures {
  path: string;
  status: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  queries: number | null;
  db_ms: number | null;
  script_bytes_gzip: number;
}

const quantile = (sorted: number[], q: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2));

export async function runDashboardBenchmark(log: Log): Promise<void> {
  if (SESSIONS > 0) return runOnLargeWorkspace(log);
  let output = '';
  const dataDir = DEMO ? mkdtempSync(join(tmpdir(), 'cuepoint-bench-dashboard-')) : undefined;
  const seeded = dataDir ? seedDemo(dataDir) : undefined;
  const service = await startService({
    args: [],
    env: { PUBLIC_URL: 'http://127.0.0.1', CUEPOINT_RATE_LIMIT: '1000000' },
    ...(dataDir && seeded ? { dataDir, workspace: { workspaceId: seeded.workspaceId, apiKey: seeded.apiKey } } : {}),
    onOutput: (chunk) => {
      output += chunk;
    },
  });
  try {
    const link = seeded?.ownerLink ?? OWNER_LINK.exec(output)?.[1];
    if (!link) throw new Error(`no owner link was printed:\n${output}`);
    const cookie = await signInDemoOwner(service, link);
    const figures = await measurePages(service.url, service.apiKey, cookie);
    report(log, figures, service.database, DEMO ? 'seed --demo' : 'an empty first start');
  } finally {
    await service.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * BENCH_DASHBOARD_SESSIONS=1000000: the same pages on PostgreSQL, on the analytics benchmark's bulk-seeded
 * workspace (bench/analytics-seed.ts: 50 videos, a year of sessions, a lead per 20 sessions and a ledger
 * entry per 50), whose owner is added with a password and signed in.
 */
async function runOnLargeWorkspace(log: Log): Promise<void> {
  const bench = await startReadBench(benchDatabaseUrl());
  try {
    const database = bench.database();
    log(`seeding a workspace with ${SESSIONS} sessions on PostgreSQL (load average ${loads(loadavg())})`);
    const began = performance.now();
    const workspace = await seedAnalyticsWorkspace(database, SESSIONS, new Date(), log);
    await sql`analyze`.execute(database.db);
    log(
      `seeded in ${((performance.now() - began) / 1000).toFixed(0)} s: ${workspace.rows.leads} leads, ${workspace.rows.outcomes} ledger entries`,
    );
    const at = new Date();
    const userId = randomUUID();
    await database.db
      .insertInto('users')
      .values({
        id: userId,
        email: DEMO_OWNER.email,
        name: DEMO_OWNER.name,
        password_hash: await hashPassword(DEMO_OWNER.password),
        password_changed_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await database.db
      .insertInto('members')
      .values({ id: randomUUID(), workspace_id: workspace.workspaceId, user_id: userId, role: 'owner', created_at: at, updated_at: at })
      .execute();
    const cookie = await signInWithPassword(bench.service.url, DEMO_OWNER.email, DEMO_OWNER.password);
    const figures = await measurePages(bench.service.url, workspace.apiKey, cookie);
    report(
      log,
      figures,
      'PostgreSQL (a throwaway database)',
      `${SESSIONS} sessions, ${workspace.rows.leads} leads (bench/analytics-seed.ts)`,
    );
  } finally {
    await bench.tearDown();
  }
}

/** Every page WARMUP then REQUESTS times, one after the other: latency, statements, scripts. */
async function measurePages(serviceUrl: string, apiKey: string, cookie: string): Promise<PageFigures[]> {
  const api = async (path: string) =>
    (await fetch(`${serviceUrl}/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as Promise<
      Record<string, { [key: string]: string }[]>
    >;
  const [videos, leads, routes] = await Promise.all([api('/videos?limit=1'), api('/leads?limit=1'), api('/routes?limit=1')]);
  const pages = [
    '/app',
    '/app/videos',
    '/app/leads',
    '/app/revenue',
    '/app/routes',
    '/app/scheduling',
    '/app/channel',
    '/app/settings',
    ...(videos.videos?.[0] ? [`/app/videos/${videos.videos[0].video_id}`] : []),
    ...(leads.leads?.[0] ? [`/app/leads/${leads.leads[0].lead_id}`] : []),
    ...(routes.routes?.[0] ? [`/app/routes/${routes.routes[0].route_id}`] : []),
    '/app/search?q=pricing',
    '/app/account',
  ];
  const get = (path: string) => fetch(`${serviceUrl}${path}`, { headers: { cookie }, redirect: 'manual' });

  const figures: PageFigures[] = [];
  for (const path of pages) {
    for (let i = 0; i < WARMUP; i++) await (await get(path)).arrayBuffer();
    const times: number[] = [];
    let last: Response | undefined;
    let html = '';
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      last = await get(path);
      html = await last.text();
      times.push(performance.now() - started);
    }
    const timing = /db;dur=([\d.]+);desc="(\d+) quer/.exec(last?.headers.get('server-timing') ?? '');
    let scriptBytes = 0;
    for (const [, src] of html.matchAll(/<script src="([^"]+)"/g)) {
      const body = Buffer.from(await (await fetch(`${serviceUrl}${(src as string).replaceAll('&amp;', '&')}`)).arrayBuffer());
      scriptBytes += gzipSync(body).length;
    }
    const sorted = times.sort((a, b) => a - b);
    figures.push({
      path,
      status: last?.status ?? 0,
      p50_ms: quantile(sorted, 0.5),
      p95_ms: quantile(sorted, 0.95),
      max_ms: quantile(sorted, 1),
      queries: timing ? Number(timing[2]) : null,
      db_ms: timing ? Number(timing[1]) : null,
      script_bytes_gzip: scriptBytes,
    });
  }

  return figures;
}

function report(log: Log, figures: PageFigures[], database: string, data: string): void {
  const served = figures.filter((page) => page.status === 200);
  const result = {
    benchmark: 'dashboard',
    at: new Date().toISOString(),
    machine: describeMachine(),
    load_average: loadavg().map((n) => Number(n.toFixed(2))),
    database,
    data,
    settings: { warmup: WARMUP, requests: REQUESTS },
    pages: figures,
    missing: figures.filter((page) => page.status === 404).map((page) => page.path),
  };
  const verdicts = {
    p95_within_50_ms: served.every((page) => page.p95_ms <= 50),
    javascript_within_50_kb: served.every((page) => page.script_bytes_gzip <= 50 * 1024),
  };
  const file = writeResultFile({ ...result, verdicts }, new Date(), SESSIONS > 0 ? 'dashboard-large' : 'dashboard');
  log(`dashboard benchmark (${database}, ${result.data}, load ${result.load_average.join(' ')})`);
  log(
    `  ${'page'.padEnd(52)} ${'status'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'queries'.padStart(8)} ${'JS gzip'.padStart(9)}`,
  );
  for (const page of figures) {
    log(
      `  ${page.path.padEnd(52)} ${String(page.status).padStart(6)} ${String(page.p50_ms).padStart(8)} ${String(page.p95_ms).padStart(8)} ${String(page.queries ?? '–').padStart(8)} ${`${(page.script_bytes_gzip / 1024).toFixed(1)} KB`.padStart(9)}`,
    );
  }
  if (result.missing.length > 0) log(`  missing (404): ${result.missing.join(', ')}`);
  log(`  verdicts: ${JSON.stringify(verdicts)}  (${file})`);
}
