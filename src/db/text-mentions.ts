/**
 * Finding the rows that mention a person (erase_lead): their lead id, email, name or phone anywhere in
 * a text, case aside. Each value is looked for as typed and as it appears inside JSON text (escaped),
 * since events, deliveries and stored responses keep JSON.
 */
import { type Expression, type RawBuilder, sql } from 'kysely';

/** The strings to look for: each value lower-cased, and its JSON-escaped form when that differs; blanks dropped. */
export function mentionNeedles(values: readonly (string | null | undefined)[]): string[] {
  const needles = new Set<string>();
  for (const value of values) {
    const trimmed = value?.trim().toLowerCase();
    if (!trimmed) continue;
    needles.add(trimmed);
    needles.add(JSON.stringify(trimmed).slice(1, -1));
  }
  return [...needles];
}

/** Whether `text` (lower-cased already or not) holds any of the needles: an SQL condition. */
export function mentionsAny(text: Expression<string | null> | RawBuilder<string | null>, needles: readonly string[]): RawBuilder<boolean> {
  if (needles.length === 0) return sql<boolean>`false`;
  return sql<boolean>`exists (select 1 from unnest(${[...needles]}::text[]) as n(needle) where strpos(lower(${text}), n.needle) > 0)`;
}

/** The same test in JavaScript, for text the database cannot read (sealed values). */
export function textMentionsAny(text: string, needles: readonly string[]): boolean {
  const lowered = text.toLowerCase();
  return needles.some((needle) => lowered.includes(needle));
}
