/**
 * Text no input may carry, because the database cannot store it, whatever field it is sent in:
 *
 * - U+0000: PostgreSQL text cannot hold it at all;
 * - a lone UTF-16 surrogate (`"\ud800"` in JSON): half of a character such as an emoji, and no
 *   character on its own. UTF-8 cannot encode it, so PostgreSQL refuses it in a JSON column (jsonb:
 *   lead notes and custom fields, transcript cues, viewing batches, events holding what was sent),
 *   where it surfaced as a 500, and a text column silently stores U+FFFD in its place.
 *
 * input-bounds.ts applies these to every string and every field name of an input before the schema
 * validator runs, so a new field is covered without anyone remembering to.
 */

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** What is wrong with a string value, or undefined when it can be stored. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!text.isWellFormed()) return `holds invalid characters: ${loneSurrogate(text, 'text')}`;
  return undefined;
}

/** What is wrong with a field name, or undefined when it can be stored. */
export function keyProblem(key: string): string | undefined {
  if (key.includes('\u0000')) return 'is a field name with the NUL character (U+0000)';
  if (!key.isWellFormed()) return `is a field name with invalid characters: ${loneSurrogate(key, 'name')}`;
  return undefined;
}

/**
 * A field name as an answer can show it: each lone surrogate written as its escape (`\uD800`), so the
 * answer names the field readably and is itself well-formed text.
 */
export function printableKey(key: string): string {
  return key.replace(LONE_SURROGATES, (unit) => escaped(unit));
}

function loneSurrogate(text: string, what: 'text' | 'name'): string {
  const found = LONE_SURROGATE.exec(text);
  const where = found ? ` (${escaped(found[0])}, character ${found.index + 1} of the ${what})` : '';
  return `a lone UTF-16 surrogate${where}, half of a character sent without its other half; send well-formed Unicode text`;
}

function escaped(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
