/**
 * Shared schema pieces, so every operation describes ids, timestamps and enums the same way in
 * validation, OpenAPI and MCP.
 */
import { type TNull, type TSchema, type TSchemaOptions, type TUnion, type TUnsafe, Type } from 'typebox';

export function StringEnum<const Values extends readonly string[]>(values: Values, options: TSchemaOptions = {}): TUnsafe<Values[number]> {
  return Type.Unsafe<Values[number]>({ type: 'string', enum: [...values], ...options });
}

export const Id = (description: string) => Type.String({ format: 'uuid', description });

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/**
 * `T | null`. For a plain string, number, integer or boolean it is written `type: [T, 'null']` rather
 * than `anyOf`: the same meaning, and the response serializer then needs no schema check per field.
 */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && ['string', 'number', 'integer', 'boolean'].includes(type)) {
    return { ...schema, type: [type, 'null'] } as unknown as TUnion<[T, TNull]>;
  }
  return Type.Union([schema, Type.Null()]);
}

/** A tag as stored: trimmed, 1–64 characters, no commas (commas separate tags in query strings). */
export const Tag = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^,]*[^,\\s][^,]*$', description: 'A tag.' });

export const Tags = (description: string) => Type.Array(Tag, { maxItems: 50, description: `${description} Duplicates are dropped.` });
