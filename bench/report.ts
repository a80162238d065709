/**
 * The benchmark's output: a small table on stdout with the verdict against the target, and the same
 * figures, with the machine and configuration they came from, as JSON in bench/results/<date>.json
 * (one file per day; a later run the same day replaces it; BENCH_RESULTS_DIR chooses another folder).
 */
import { writeFileSync } from 'node:fs';
import { describeMachine } from './machine.ts';
import type { Figures } from './measure.ts';
import { resultsDirectory } from './result-file.ts';

export interface Summary {
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  serverCpuMicrosPerRequest: number;
  postgresCpuMicrosPerRequest?: number;
}

export interface Round {
  order: string[];
  bare: Figures;
  full: Figures;
  ratio: number;
}

export interface Report {
  target: number;
  configuration: Record<string, unknown>;
  bare: Summary;
  full: Summary;
  ratio: number;
  rounds: Round[];
}

/** Rounds whose ratios differ by more than this were disturbed by something else on the machine. */
const NOISY_SPREAD = 0.15;

/**
 * bare/full CPU per request, Node and PostgreSQL together: the throughput ratio a CPU-bound machine
 * would show, and far steadier than req/s when other processes compete for the cores.
 */
export function costRatio(report: Report): number | undefined {
  const { bare, full } = report;
  if (bare.postgresCpuMicrosPerRequest === undefined || full.postgresCpuMicrosPerRequest === undefined) return undefined;
  return (
    (bare.serverCpuMicrosPerRequest + bare.postgresCpuMicrosPerRequest) /
    (full.serverCpuMicrosPerRequest + full.postgresCpuMicrosPerRequest)
  );
}

function spread(report: Report): number {
  const ratios = report.rounds.map((r) => r.ratio);
  return Math.max(...ratios) - Math.min(...ratios);
}

export function printReport(report: Report): void {
  const withPostgres = report.bare.postgresCpuMicrosPerRequest !== undefined && report.full.postgresCpuMicrosPerRequest !== undefined;
  const cells = (values: string[]) => values.map((v) => v.padStart(12)).join('');
  const row = (name: string, s: Summary) =>
    name.padEnd(24) +
    cells([
      s.requestsPerSecond.toFixed(0),
      s.latencyMs.p50.toFixed(1),
      s.latencyMs.p99.toFixed(1),
      s.serverCpuMicrosPerRequest.toFixed(0),
      ...(withPostgres ? [(s.postgresCpuMicrosPerRequest ?? 0).toFixed(0)] : []),
    ]);
  const verdict = report.ratio >= report.target ? 'PASS' : 'FAIL';
  const lines = [
    '',
    'GET /v1/videos?limit=50'.padEnd(24) + cells(['req/s', 'p50 ms', 'p99 ms', 'Node µs/req', ...(withPostgres ? ['PG µs/req'] : [])]),
    row('bare Fastify route', report.bare),
    row('full stack', report.full),
    '',
    '(µs/req: CPU time per request spent by the server process and by PostgreSQL)',
    `ratio per round: ${report.rounds.map((r) => r.ratio.toFixed(3)).join(', ')}`,
    `ratio full/bare: ${report.ratio.toFixed(3)} (target ≥ ${report.target}) ${verdict}`,
  ];
  const cost = costRatio(report);
  if (cost !== undefined) lines.push(`CPU cost ratio bare/full (Node + PostgreSQL per request): ${cost.toFixed(3)}`);
  if (spread(report) > NOISY_SPREAD) {
    lines.push(`warning: the rounds disagree by ${spread(report).toFixed(2)}; something else was using the CPU. Rerun on a quiet machine.`);
  }
  lines.push('');
  process.stdout.write(lines.join('\n'));
}

/** Writes the JSON report and answers its path. */
export function writeReport(report: Report, at: Date): string {
  const file = new URL(`${at.toISOString().slice(0, 10)}.json`, resultsDirectory());
  const body = {
    benchmark: 'list_videos full stack vs bare Fastify route',
    date: at.toISOString(),
    machine: describeMachine(),
    ...report,
    cost_ratio: costRatio(report) ?? null,
    round_spread: spread(report),
    verdict: report.ratio >= report.target ? 'pass' : 'fail',
  };
  writeFileSync(file, `${JSON.stringify(forJson(body), null, 2)}\n`);
  return file.pathname;
}

/** snake_case keys, as all of the project's JSON (DESIGN §6), and no fifteen-digit fractions. */
function forJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1000) / 1000;
  if (Array.isArray(value)) return value.map(forJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), forJson(v)]));
}
