/**
 * Trimming before validating. A field the service stores trimmed (a channel's dek, a folder's name,
 * an email) is marked in its schema (`Trimmed` in core/schemas.ts); its value is trimmed here, in
 * place, before the validator judges it, so the rules apply to what will be stored: `"\n  Spaced
 * dek  "` is the dek `Spaced dek`, not a refused line break, and 300 characters with a space around
 * them fit a 300-character limit. Text that is only spaces is left as sent, so it is still refused
 * as blank rather than as empty.
 *
 * The walk follows the schema, not the value (like the size check in input-bounds.ts), so it goes no
 * deeper than the schema does; a schema without a marked field is not walked at all.
 */

/** The schema keyword marking a string that is trimmed before it is validated. */
export const TRIMMED = 'x-trimmed';

interface TrimSchema {
  type?: string | string[];
  [TRIMMED]?: boolean;
  properties?: Record<string, TrimSchema>;
  items?: TrimSchema;
  anyOf?: TrimSchema[];
}

/** Trims, in place, every string of `value` that its schema marks as trimmed. */
export function trimMarkedStrings(schema: TrimSchema, value: unknown): void {
  if (hasMarks(schema)) trimmed(schema, value);
}

function trimmed(schema: TrimSchema, value: unknown): unknown {
  if (typeof value === 'string') {
    const kept = value.trim();
    return kept !== '' && branches(schema).some((branch) => branch[TRIMMED] === true) ? kept : value;
  }
  if (Array.isArray(value)) {
    const arrays = branches(schema).filter((branch) => branch.items !== undefined);
    const items = arrays.length === 1 ? arrays[0]?.items : undefined;
    if (!items || !hasMarks(items)) return value;
    for (let i = 0; i < value.length; i++) value[i] = trimmed(items, value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const objects = branches(schema).filter((branch) => branch.properties !== undefined);
    const properties = objects.length === 1 ? objects[0]?.properties : undefined;
    if (!properties) return value;
    const fields = value as Record<string, unknown>;
    for (const [name, property] of Object.entries(properties)) {
      if (!Object.hasOwn(fields, name) || !hasMarks(property)) continue;
      const kept = trimmed(property, fields[name]);
      if (kept !== fields[name]) fields[name] = kept;
    }
  }
  return value;
}

function branches(schema: TrimSchema): TrimSchema[] {
  return schema.anyOf ?? [schema];
}

const marked = new WeakMap<object, boolean>();

/** Whether the schema marks a string as trimmed anywhere inside it (remembered per schema). */
function hasMarks(schema: TrimSchema): boolean {
  let known = marked.get(schema);
  if (known === undefined) {
    known =
      schema[TRIMMED] === true ||
      (schema.anyOf ?? []).some(hasMarks) ||
      (schema.items !== undefined && hasMarks(schema.items)) ||
      Object.values(schema.properties ?? {}).some(hasMarks);
    marked.set(schema, known);
  }
  return known;
}
