/**
 * The measurement plan: both targets warmed up, then measured in alternating rounds (bare first, then
 * full first, and so on), so that drift in the machine's state, or another process waking up, falls
 * on both alike. Each measurement also records what PostgreSQL spent on it, when that is visible.
 */
import { type Figures, measure } from './measure.ts';
import type { createPostgresCpuMeter } from './postgres-cpu.ts';
import type { Round, Summary } from './report.ts';

export interface Target {
  url: string;
  headers: Record<string, string>;
}

export interface Plan {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  meter: ReturnType<typeof createPostgresCpuMeter>;
  log(line: string): void;
}

export async function compare(targets: { bare: Target; full: Target }, plan: Plan): Promise<Round[]> {
  const load = async (name: 'bare' | 'full', durationSeconds: number): Promise<Figures> => {
    const stopMeter = await plan.meter.start();
    const figures = await measure({ ...targets[name], connections: plan.connections, durationSeconds });
    const postgresMicros = await stopMeter();
    if (postgresMicros !== undefined) figures.postgresCpuMicrosPerRequest = postgresMicros / Math.max(1, figures.requests);
    return figures;
  };
  plan.log(`warming up both targets for ${plan.warmupSeconds} s each`);
  await load('bare', plan.warmupSeconds);
  await load('full', plan.warmupSeconds);

  const rounds: Round[] = [];
  for (let i = 0; i < plan.rounds; i++) {
    const order = i % 2 === 0 ? (['bare', 'full'] as const) : (['full', 'bare'] as const);
    const figures: Partial<Record<'bare' | 'full', Figures>> = {};
    for (const name of order) {
      plan.log(`round ${i + 1}/${plan.rounds}: ${name}, ${plan.durationSeconds} s`);
      figures[name] = checked(name, await load(name, plan.durationSeconds));
    }
    const { bare, full } = figures as Record<'bare' | 'full', Figures>;
    rounds.push({ order: [...order], bare, full, ratio: full.requestsPerSecond / bare.requestsPerSecond });
  }
  return rounds;
}

/** Throughput over all rounds together; latency and CPU figures are the means of the rounds'. */
export function summarise(all: Figures[]): Summary {
  const sum = (pick: (f: Figures) => number) => all.reduce((total, f) => total + pick(f), 0);
  const mean = (pick: (f: Figures) => number) => sum(pick) / all.length;
  const postgres = all.every((f) => f.postgresCpuMicrosPerRequest !== undefined);
  return {
    requestsPerSecond: sum((f) => f.requests) / sum((f) => f.durationSeconds),
    latencyMs: { p50: mean((f) => f.latencyMs.p50), p99: mean((f) => f.latencyMs.p99) },
    serverCpuMicrosPerRequest: mean((f) => f.serverCpuMicrosPerRequest),
    ...(postgres ? { postgresCpuMicrosPerRequest: mean((f) => f.postgresCpuMicrosPerRequest ?? 0) } : {}),
  };
}

/** Both targets must return the same page before their speeds mean anything side by side. */
export async function checkSameAnswer(...targets: Target[]): Promise<void> {
  const pages = await Promise.all(
    targets.map(async ({ url, headers }) => {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { videos: { video_id: string }[] };
      return body.videos.map((v) => v.video_id).join(',');
    }),
  );
  if (pages[0]?.split(',').length !== 50 || pages.some((p) => p !== pages[0])) {
    throw new Error('the bare route and the full stack do not return the same 50 videos');
  }
}

/** A run where requests failed measures error paths, not the route; refuse to report it. */
function checked(name: string, figures: Figures): Figures {
  if (figures.non2xx > 0 || figures.errors > 0) {
    throw new Error(`${name}: ${figures.non2xx} non-2xx responses and ${figures.errors} errors during the measurement`);
  }
  return figures;
}
