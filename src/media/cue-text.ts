/**
 * The words of a caption cue as plain text, whichever format carried them. WebVTT marks text up with
 * tags (<v Speaker>, <c.yellow>, <i>, <b>, <u>, <ruby>, <lang en>, inline timestamps) and writes
 * `&`, `<` and `>` as character references; SRT has HTML-like tags (<i>, <font color="…">) and the
 * override codes of the ASS editors it is often exported from ({\an8}), with every other character
 * as it is (so "<3" stays). The lines of a cue become one line: a transcript is read and searched,
 * not laid out.
 */

const NAMED_REFERENCES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lrm: '',
  rlm: '',
};

/** The plain text of WebVTT cue lines: tags dropped, character references decoded, spaces collapsed. */
export function webVttCueText(lines: readonly string[]): string {
  return oneLine(lines.map((line) => decodeReferences(line.replace(/<[^>]*>/g, ''))));
}

// Only the tags SRT players know, so that a "<" in the words is kept.
const SRT_TAG = /<\/?(?:b|i|u|s|font)(?:\s[^>]*)?>/gi;
const ASS_OVERRIDE = /\{\\[^}]*\}/g;

/** The plain text of SRT cue lines: formatting tags and ASS override codes dropped, spaces collapsed. */
export function srtCueText(lines: readonly string[]): string {
  return oneLine(lines.map((line) => line.replace(SRT_TAG, '').replace(ASS_OVERRIDE, '')));
}

function decodeReferences(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]+);/g, (reference, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      // A reference to nothing printable (NUL, a lone surrogate, beyond Unicode) stays as written.
      const printable = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return printable ? String.fromCodePoint(code) : reference;
    }
    return Object.hasOwn(NAMED_REFERENCES, body) ? (NAMED_REFERENCES[body] as string) : reference;
  });
}

function oneLine(lines: readonly string[]): string {
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}
