/**
 * Text that ends up in a header (a subject, a display name) is made one clean line before it is
 * stored: a line break in it would let whoever typed it add headers of their own (a Bcc, a second
 * body), and other control characters, direction overrides and lone surrogates garble or disguise
 * what the recipient's mail program shows. They become spaces, runs of spaces one, and the text is
 * bounded so no header grows past what servers accept.
 */

// C0 and C1 controls (CR, LF, tab, NEL among them), line and paragraph separators, bidirectional
// overrides, embeddings and isolates: the characters core/schemas.ts ShownText refuses in a name.
const UNSAFE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/gu;

/** Subjects past this many characters are cut, with an ellipsis: mail programs show about 80. */
export const MAX_SUBJECT_LENGTH = 200;
/** A display name past this many characters is cut the same way. */
export const MAX_DISPLAY_NAME_LENGTH = 100;

/** One line of at most `maxLength` characters (code points), cut with an ellipsis. */
export function cleanHeaderText(text: string, maxLength: number): string {
  const line = text.toWellFormed().replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  const characters = [...line];
  if (characters.length <= maxLength) return line;
  return `${characters
    .slice(0, maxLength - 1)
    .join('')
    .trimEnd()}…`;
}
