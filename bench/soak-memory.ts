/**
 * The soak's memory curve (bench/soak.ts): the server's RSS read from /proc at a fixed interval, and
 * what the curve says. Whether memory levels off is read from the slope (least squares, MiB a minute)
 * over the first and the last third of the load: a warming process grows at first (V8's heap finding
 * its size, the embedded database's pages coming in), a leak keeps growing in the last third too.
 * One reading at a time is noise: the heap's sawtooth moves RSS by up to 100 MiB over two or three
 * minutes (V8 collecting its old generation and giving pages back), so the slope over a third of a
 * run can follow the sawtooth (+22 MiB/min over a last third that was one rise of it), and the
 * sawtooth may stop (RSS flat once the heap has found its size), so its floor is no guide either. A
 * leak raises the ceiling: the verdict is levelled off when the last third's highest reading is no
 * higher than the highest before it, give or take LEVELLED_MIB_PER_MINUTE for each minute of the
 * last third, or when the last third's slope is below that.
 */
import { readFileSync } from 'node:fs';
import { readMemory } from './service-process.ts';

const MIB = 1024 * 1024;
/** Growth below this (MiB a minute) is levelled off: 60 MiB an hour at most. */
export const LEVELLED_MIB_PER_MINUTE = 1;

export type Phase = 'warmup' | 'load' | 'idle';

export interface Sample {
  phase: Phase;
  /** Seconds since the load (after the warm-up) began; negative during the warm-up. */
  seconds: number;
  rssMib: number;
  /** The anonymous part of RSS: heaps and native allocations, not mapped files. */
  rssAnonMib: number;
  /** Of it, WebAssembly memories: the embedded database's (PGlite); undici's HTTP parser holds under 1 MiB. */
  wasmMib: number;
}

export interface Sampler {
  samples: Sample[];
  /** Takes a reading now (besides the interval's), in the given phase. */
  take(phase: Phase): Sample;
  setPhase(phase: Phase): void;
  stop(): void;
}

/** Reads the RSS of `pid` every `intervalSeconds`; `loadStart` is the time (performance.now) seconds count from. */
export function sampleMemory(pid: number, intervalSeconds: number, loadStart: () => number): Sampler {
  const samples: Sample[] = [];
  let phase: Phase = 'warmup';
  const take = (at: Phase) => {
    const memory = readMemory(pid);
    const sample = {
      phase: at,
      seconds: (performance.now() - loadStart()) / 1000,
      rssMib: memory.rss / MIB,
      rssAnonMib: memory.rssAnon / MIB,
      wasmMib: wasmResident(pid) / MIB,
    };
    samples.push(sample);
    return sample;
  };
  const timer = setInterval(() => take(phase), intervalSeconds * 1000);
  return {
    samples,
    take,
    setPhase(next) {
      phase = next;
    },
    stop: () => clearInterval(timer),
  };
}

const MAPPING = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/;
const WASM_GUARD_BYTES = 4 * 1024 ** 3;

/**
 * Resident bytes of the process's WebAssembly memories, from /proc/<pid>/smaps: V8 gives each one a
 * read-write mapping followed by a PROT_NONE guard region of gigabytes, which nothing else in a Node
 * process has. PGlite's memory grows and is never given back, so its step is told apart from the
 * JavaScript heap's.
 */
export function wasmResident(pid: number): number {
  let total = 0;
  let current: { writable: boolean; rss: number } | undefined;
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const mapping = MAPPING.exec(line);
      if (mapping) {
        const size = Number.parseInt(mapping[2] as string, 16) - Number.parseInt(mapping[1] as string, 16);
        if (current?.writable && mapping[3] === '---p' && size >= WASM_GUARD_BYTES) total += current.rss;
        current = { writable: (mapping[3] as string).startsWith('rw'), rss: 0 };
      } else if (current && line.startsWith('Rss:')) current.rss = Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
    }
  } catch {
    return 0; // no smaps (not Linux, or the process is gone)
  }
  return total;
}

/** Least-squares slope of RSS in MiB a minute over the samples; 0 with fewer than two. */
export function slopePerMinute(samples: readonly Sample[], field: 'rssMib' | 'rssAnonMib' = 'rssMib'): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const meanX = samples.reduce((sum, s) => sum + s.seconds, 0) / n;
  const meanY = samples.reduce((sum, s) => sum + s[field], 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.seconds - meanX) * (s[field] - meanY);
    variance += (s.seconds - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

export interface Curve {
  startMib: number;
  /** RSS at each whole minute of the load (the reading nearest it). */
  perMinuteMib: { minute: number; rssMib: number }[];
  maxMib: number;
  endOfLoadMib: number;
  afterIdleMib: number;
  growthMibPerMinute: { firstThird: number; lastThird: number; whole: number };
  anonGrowthMibPerMinute: { firstThird: number; lastThird: number };
  /** The lowest and highest reading of the first and the last third. */
  thirds: { first: { minMib: number; maxMib: number }; last: { minMib: number; maxMib: number } };
  /** The WebAssembly memories' resident MiB (the embedded database's) at the load's start and end, and after the idle. */
  wasmMib: { start: number; endOfLoad: number; afterIdle: number };
  /** The last third's peak over the highest reading before it (negative: below it). */
  peakOverEarlierMib: number;
  levelledOff: boolean;
}

/** What the readings say: the load's samples from its start reading to its end reading, then the idle's last. */
export function describeCurve(samples: readonly Sample[], loadSeconds: number): Curve {
  const load = samples.filter((s) => s.phase === 'load');
  const idle = samples.filter((s) => s.phase === 'idle');
  const first = load.filter((s) => s.seconds <= loadSeconds / 3);
  const last = load.filter((s) => s.seconds >= (2 * loadSeconds) / 3);
  const nearest = (seconds: number) =>
    load.reduce((best, s) => (Math.abs(s.seconds - seconds) < Math.abs(best.seconds - seconds) ? s : best), load[0] as Sample);
  const minutes = Math.floor(loadSeconds / 60);
  const range = (of: readonly Sample[]) => ({
    minMib: Math.min(...of.map((s) => s.rssMib)),
    maxMib: Math.max(...of.map((s) => s.rssMib)),
  });
  const thirds = { first: range(first), last: range(last) };
  const earlierPeak = Math.max(...samples.filter((s) => s.phase === 'load' && s.seconds < (2 * loadSeconds) / 3).map((s) => s.rssMib));
  const peakOverEarlier = thirds.last.maxMib - earlierPeak;
  const lastThird = slopePerMinute(last);
  return {
    startMib: (load[0] as Sample).rssMib,
    perMinuteMib: Array.from({ length: minutes }, (_, i) => ({ minute: i + 1, rssMib: nearest((i + 1) * 60).rssMib })),
    maxMib: Math.max(...samples.filter((s) => s.phase !== 'warmup').map((s) => s.rssMib)),
    endOfLoadMib: (load.at(-1) as Sample).rssMib,
    afterIdleMib: (idle.at(-1) ?? (load.at(-1) as Sample)).rssMib,
    growthMibPerMinute: { firstThird: slopePerMinute(first), lastThird, whole: slopePerMinute(load) },
    anonGrowthMibPerMinute: { firstThird: slopePerMinute(first, 'rssAnonMib'), lastThird: slopePerMinute(last, 'rssAnonMib') },
    thirds,
    wasmMib: {
      start: (load[0] as Sample).wasmMib,
      endOfLoad: (load.at(-1) as Sample).wasmMib,
      afterIdle: (idle.at(-1) ?? (load.at(-1) as Sample)).wasmMib,
    },
    peakOverEarlierMib: peakOverEarlier,
    levelledOff: lastThird < LEVELLED_MIB_PER_MINUTE || peakOverEarlier <= (LEVELLED_MIB_PER_MINUTE * loadSeconds) / 3 / 60,
  };
}
