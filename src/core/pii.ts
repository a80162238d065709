/**
 * Lead privacy (DESIGN §4). Output schemas mark personal fields with `x-pii` (email, phone, name);
 * while the workspace keeps masking on, the pipeline masks every marked field of every response, so
 * REST, MCP (and webhook payloads, which reuse maskPersonalData) can never disagree:
 * email `j***@e***.com`, phone `***89` (last two digits), name `J***`.
 */
import { type TSchemaOptions, type TString, Type } from 'typebox';

export type PiiKind = 'email' | 'phone' | 'name';

/** A string field holding personal data of the given kind. */
export function PersonalString(kind: PiiKind, options: TSchemaOptions = {}): TString {
  return Type.String({ ...options, 'x-pii': kind });
}

type Schema = {
  'x-pii'?: PiiKind;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: Schema | boolean;
};

/** A copy of `value` with every field its schema marks as personal data masked. */
export function maskPersonalData(schema: Schema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string') return schema['x-pii'] ? maskValue(schema['x-pii'], value) : value;
  if (Array.isArray(value)) return schema.items ? value.map((item) => maskPersonalData(schema.items as Schema, item)) : value;
  if (typeof value === 'object') {
    if (schema.anyOf) return schema.anyOf.reduce<unknown>((masked, branch) => maskPersonalData(branch, masked), value);
    if (!schema.properties && typeof schema.additionalProperties !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      // Own keys only: a field named `constructor` must not find the prototype's.
      const declared = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const fieldSchema = declared ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      out[key] = fieldSchema ? maskPersonalData(fieldSchema, field) : field;
    }
    return out;
  }
  return value;
}

/** Whether a schema marks any field, at any depth, as personal data: only those responses are walked. */
export function hasPersonalData(schema: Schema): boolean {
  return Boolean(
    schema['x-pii'] ||
      (schema.items && hasPersonalData(schema.items)) ||
      schema.anyOf?.some(hasPersonalData) ||
      Object.values(schema.properties ?? {}).some(hasPersonalData) ||
      (typeof schema.additionalProperties === 'object' && hasPersonalData(schema.additionalProperties)),
  );
}

export function maskValue(kind: PiiKind, value: string): string {
  if (value === '') return value;
  if (kind === 'email') {
    const at = value.lastIndexOf('@');
    if (at < 1) return `${value[0]}***`;
    const domain = value.slice(at + 1);
    const dot = domain.lastIndexOf('.');
    const tld = dot > 0 ? domain.slice(dot) : '';
    return `${value[0]}***@${domain[0] ?? ''}***${tld}`;
  }
  if (kind === 'phone') {
    const digits = value.replace(/\D/g, '');
    return `***${digits.slice(-2)}`;
  }
  return `${[...value][0]}***`;
}
