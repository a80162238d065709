/**
 * Distinct viewers, countable over any range of days without reading one row per viewer: each
 * video-day keeps a sketch of the viewer ids it saw, and sketches merge. Up to 512 viewers a sketch
 * is the exact set of their 32-bit hashes (so small counts are exact); beyond that it becomes a
 * HyperLogLog with 2,048 registers (about 2.3% standard error) in the same 2 KB. Either way a read
 * merges one sketch per video-day, whatever the number of viewers behind them.
 */
import { createHash } from 'node:crypto';

const EXACT = 1;
const LOG_LOG = 2;
const EXACT_LIMIT = 512;
const PRECISION = 11;
const REGISTERS = 1 << PRECISION;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

type Parsed = { kind: 'exact'; hashes: Set<number> } | { kind: 'loglog'; registers: Uint8Array };

export function emptySketch(): Uint8Array {
  return Uint8Array.of(EXACT);
}

export function viewerHash(viewerId: string): number {
  return createHash('sha256').update(viewerId).digest().readUInt32BE(0);
}

/** The sketch with this viewer in it. */
export function addViewer(sketch: Uint8Array | null | undefined, viewerId: string): Uint8Array {
  const parsed = parse(sketch);
  const hash = viewerHash(viewerId);
  if (parsed.kind === 'exact') {
    parsed.hashes.add(hash);
    return serialize(parsed.hashes.size > EXACT_LIMIT ? toLogLog(parsed.hashes) : parsed);
  }
  raise(parsed.registers, hash);
  return serialize(parsed);
}

/** One sketch holding every viewer of all the given sketches. */
export function mergeSketches(sketches: Iterable<Uint8Array | null | undefined>): Uint8Array {
  const union = new Set<number>();
  let registers: Uint8Array | null = null;
  for (const sketch of sketches) {
    if (!sketch || sketch.length === 0) continue;
    if (sketch[0] !== EXACT) {
      const other = parse(sketch); // a HyperLogLog, or it throws
      if (other.kind !== 'loglog') continue;
      registers ??= toLogLog(union).registers;
      union.clear();
      for (let i = 0; i < REGISTERS; i++) registers[i] = Math.max(registers[i] as number, other.registers[i] as number);
      continue;
    }
    // Exact sketches are read in place (a summary merges thousands; building a Set for each was most
    // of its cost). From the moment the result is a HyperLogLog, hashes go straight into its registers.
    const view = new DataView(sketch.buffer, sketch.byteOffset, sketch.byteLength);
    for (let at = 1; at + 4 <= sketch.length; at += 4) {
      const hash = view.getUint32(at);
      if (registers) raise(registers, hash);
      else union.add(hash);
    }
    if (!registers && union.size > EXACT_LIMIT) {
      registers = toLogLog(union).registers;
      union.clear();
    }
  }
  return registers ? serialize({ kind: 'loglog', registers }) : serialize({ kind: 'exact', hashes: union });
}

/** How many distinct viewers the sketch holds: exact up to 512, estimated above. */
export function countViewers(sketch: Uint8Array | null | undefined): number {
  const parsed = parse(sketch);
  if (parsed.kind === 'exact') return parsed.hashes.size;
  let sum = 0;
  let zeros = 0;
  for (const value of parsed.registers) {
    sum += 2 ** -value;
    if (value === 0) zeros++;
  }
  const estimate = (ALPHA * REGISTERS * REGISTERS) / sum;
  // Small-range correction (linear counting), as in the original HyperLogLog paper.
  if (estimate <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
  return Math.round(estimate);
}

function parse(sketch: Uint8Array | null | undefined): Parsed {
  if (!sketch || sketch.length === 0 || sketch[0] === EXACT) {
    const hashes = new Set<number>();
    if (sketch) {
      const view = new DataView(sketch.buffer, sketch.byteOffset, sketch.byteLength);
      for (let at = 1; at + 4 <= sketch.length; at += 4) hashes.add(view.getUint32(at));
    }
    return { kind: 'exact', hashes };
  }
  if (sketch[0] !== LOG_LOG || sketch.length !== REGISTERS + 1) throw new Error('Not a viewer sketch');
  return { kind: 'loglog', registers: sketch.slice(1) };
}

function serialize(parsed: Parsed): Uint8Array {
  if (parsed.kind === 'loglog') {
    const bytes = new Uint8Array(REGISTERS + 1);
    bytes[0] = LOG_LOG;
    bytes.set(parsed.registers, 1);
    return bytes;
  }
  const sorted = [...parsed.hashes].sort((a, b) => a - b);
  const bytes = new Uint8Array(1 + sorted.length * 4);
  bytes[0] = EXACT;
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < sorted.length; i++) view.setUint32(1 + i * 4, sorted[i] as number);
  return bytes;
}

function toLogLog(hashes: Iterable<number>): { kind: 'loglog'; registers: Uint8Array } {
  const registers = new Uint8Array(REGISTERS);
  for (const hash of hashes) raise(registers, hash);
  return { kind: 'loglog', registers };
}

/** HyperLogLog update: the top bits pick a register, which keeps the longest run of leading zeros seen. */
function raise(registers: Uint8Array, hash: number): void {
  const index = hash >>> (32 - PRECISION);
  const rest = (hash << PRECISION) >>> 0;
  const rank = rest === 0 ? 32 - PRECISION + 1 : Math.clz32(rest) + 1;
  if (rank > (registers[index] as number)) registers[index] = rank;
}
