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

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** A tag as stored: trimmed, 1–64 characters, no commas (commas separate tags in query strings). */
export const Tag = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^,]*[^,\\s][^,]*$', description: 'A tag.' });

export const Tags = (description: string) => Type.Array(Tag, { maxItems: 50, description: `${description} Duplicates are dropped.` });
