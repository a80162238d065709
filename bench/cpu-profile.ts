/**
 * Reads a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) into what a benchmark report needs:
 * where the process spent its time, by area (a package under node_modules, a file of ours, Node's own
 * internals, the garbage collector, idle) as self time, the functions with the most self time, and
 * for each of our files the share of samples with it anywhere on the stack (inclusive time).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  file: string;
  sampledSeconds: number;
  /** Busy time: all samples but idle. */
  busySeconds: number;
  byArea: { area: string; selfSeconds: number; shareOfBusy: number }[];
  topFunctions: { function: string; area: string; selfSeconds: number; shareOfBusy: number }[];
  /** Our files (src/…), time with the file anywhere on the stack. */
  inclusiveByFile: { file: string; seconds: number; shareOfBusy: number }[];
}

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const areaTime = new Map<string, number>();
  const functionTime = new Map<string, { area: string; micros: number }>();
  let idle = 0;
  let total = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id) as ProfileNode;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    total += micros;
    if (area === '(idle)') idle += micros;
    areaTime.set(area, (areaTime.get(area) ?? 0) + micros);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    const entry = functionTime.get(name) ?? { area, micros: 0 };
    entry.micros += micros;
    functionTime.set(name, entry);
  }

  // Inclusive time of our files: each sample counts once per file on its stack.
  const fileTime = new Map<string, number>();
  const stackFiles = new Map<number, Set<string>>();
  const filesOf = (id: number): Set<string> => {
    const known = stackFiles.get(id);
    if (known) return known;
    const node = byId.get(id) as ProfileNode;
    const up = parent.get(id);
    const files = new Set(up === undefined ? [] : filesOf(up));
    const own = ourFile(node.callFrame.url);
    if (own) files.add(own);
    stackFiles.set(id, files);
    return files;
  };
  profile.samples.forEach((id, i) => {
    for (const f of filesOf(id)) fileTime.set(f, (fileTime.get(f) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const busy = total - idle;
  const share = (micros: number) => (busy > 0 ? micros / busy : 0);
  return {
    file,
    sampledSeconds: total / 1e6,
    busySeconds: busy / 1e6,
    byArea: [...areaTime]
      .filter(([area]) => area !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, micros]) => ({ area, selfSeconds: micros / 1e6, shareOfBusy: share(micros) })),
    topFunctions: [...functionTime]
      .filter(([, entry]) => entry.area !== '(idle)')
      .sort((a, b) => b[1].micros - a[1].micros)
      .slice(0, top)
      .map(([name, entry]) => ({ function: name, area: entry.area, selfSeconds: entry.micros / 1e6, shareOfBusy: share(entry.micros) })),
    inclusiveByFile: [...fileTime]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, micros]) => ({ file: f, seconds: micros / 1e6, shareOfBusy: share(micros) })),
  };
}

export function printProfile(log: (line: string) => void, summary: ProfileSummary): void {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(7);
  log(`server CPU profile (${summary.file}): ${summary.busySeconds.toFixed(1)} s busy of ${summary.sampledSeconds.toFixed(1)} s sampled`);
  log('  self time by area:');
  for (const a of summary.byArea) log(`    ${pct(a.shareOfBusy)}  ${a.area}`);
  log('  functions with the most self time:');
  for (const f of summary.topFunctions) log(`    ${pct(f.shareOfBusy)}  ${f.function}`);
  log('  our files, inclusive (on the stack):');
  for (const f of summary.inclusiveByFile) log(`    ${pct(f.shareOfBusy)}  ${f.file}`);
}

function areaOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') return functionName;
    return '(native / V8 builtins)';
  }
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  return ourFile(url) ?? shortUrl(url);
}

function ourFile(url: string): string | undefined {
  if (url.includes('node_modules')) return undefined;
  const match = /\/(src\/.+)$/.exec(url);
  return match?.[1];
}

function shortUrl(url: string): string {
  const pkg = /node_modules\/(.+)$/.exec(url);
  if (pkg) return pkg[1] as string;
  const ours = ourFile(url);
  if (ours) return ours;
  return url.replace(/^file:\/\//, '');
}

export interface Profiling {
  /** NODE_OPTIONS for the process to profile. */
  env: Record<string, string>;
  /** The busiest profile written (with --processes, one file per process), summarised. */
  summarise(): ProfileSummary | undefined;
  /** Removes a temp dir; a directory the user named is kept. */
  cleanup(): void;
}

/**
 * BENCH_CPU_PROF: unset, no profile; '1', profile into a temp dir, summarise, remove it; a path, keep
 * the .cpuprofile files there (for Chrome DevTools or speedscope). The profile is written when the
 * process exits, so summarise after stopping it.
 */
export function profilingFromEnvironment(): Profiling | undefined {
  const setting = process.env.BENCH_CPU_PROF;
  if (!setting) return undefined;
  const keep = setting !== '1';
  const dir = keep ? resolve(setting) : mkdtempSync(join(tmpdir(), 'cuepoint-prof-'));
  mkdirSync(dir, { recursive: true });
  return {
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` },
    summarise() {
      const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
      return files
        .map((f) => summariseProfile(join(dir, f)))
        .sort((a, b) => b.busySeconds - a.busySeconds)
        .map((summary) => ({ ...summary, file: keep ? summary.file : (summary.file.split('/').pop() ?? summary.file) }))[0];
    },
    cleanup() {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}
