/**
 * The Range header of a GET on a file, read strictly by RFC 9110 §14.1–14.2 and resolved against the
 * file's size. Common parsers read numbers with parseInt, so loose forms (`bytes=-1-5`, `0.5-1.5`,
 * `0x10-`) became ranges nobody asked for (@fastify/send, which served media before, did), and
 * answered an over-long suffix (`bytes=-99999999`) with 416 where the RFC serves the whole file.
 *
 * What we answer (docs/uploads-and-media.md, "Range requests"):
 * - no Range, a unit other than `bytes`, or a header that is not the RFC's grammar → the whole file,
 *   200 (§14.2: a server MAY ignore Range, and MUST ignore units it does not understand);
 * - more than one range → the whole file, 200 (no multipart/byteranges: players never ask for it, and
 *   §14.2 lets a server ignore a set of ranges);
 * - one range that overlaps the file → 206 with that range, its end clamped to the file, a suffix
 *   longer than the file meaning the whole file (§14.1.3);
 * - one range that does not → 416.
 */

export type ByteRange =
  | { kind: 'whole' }
  | { kind: 'unsatisfiable' }
  /** Inclusive byte positions, both within the file. */
  | { kind: 'part'; start: number; end: number };

const WHOLE: ByteRange = { kind: 'whole' };
const UNSATISFIABLE: ByteRange = { kind: 'unsatisfiable' };

// ranges-specifier = range-unit "=" range-set; range-unit is a token, compared case-insensitively.
const SPECIFIER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)=(.*)$/s;
// The list separator with its optional whitespace (OWS = *( SP / HTAB )).
const LIST_SEPARATOR = /[ \t]*,[ \t]*/;
const INT_RANGE = /^([0-9]+)-([0-9]*)$/;
const SUFFIX_RANGE = /^-([0-9]+)$/;

export function resolveByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return WHOLE;
  const specifier = SPECIFIER.exec(header);
  if (!specifier || (specifier[1] as string).toLowerCase() !== 'bytes') return WHOLE;
  // Recipients must accept empty list elements (RFC 9110 §5.6.1.2): "bytes=0-9," is one range.
  const specs = (specifier[2] as string).split(LIST_SEPARATOR).filter((spec) => spec !== '');
  if (specs.length !== 1) return WHOLE;
  const spec = specs[0] as string;

  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    // Digits only, so Number() is exact up to 2^53 and at least that large beyond: every
    // comparison with a file size stays right however many digits were sent.
    const length = Number(suffix[1]);
    if (length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const range = INT_RANGE.exec(spec);
  if (!range) return WHOLE;
  const first = Number(range[1]);
  const last = range[2] === '' ? Number.POSITIVE_INFINITY : Number(range[2]);
  // last-pos below first-pos makes the range-spec invalid, not unsatisfiable (§14.1.1).
  if (last < first) return WHOLE;
  if (first >= size) return UNSATISFIABLE;
  return { kind: 'part', start: first, end: Math.min(last, size - 1) };
}
