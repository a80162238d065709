/**
 * One validator for both transports, so a bad input reads the same over REST and MCP. Every problem
 * is reported at once (`allErrors`), named by field. Query strings need their numbers and booleans
 * coerced; JSON bodies and MCP arguments are taken strictly as sent.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TObject } from 'typebox';
import { AppError, type FieldProblem } from './errors.ts';

// ajv-formats ships CommonJS; under ESM its default export is the module object.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, strict: false });
  addFormats(ajv, ['uuid', 'date-time', 'date', 'uri', 'email']);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);
const compiled = new WeakMap<TObject, { strict: ValidateFunction; coercing: ValidateFunction }>();

export type InputSource = 'json' | 'query';

/** Validates in place (defaults are filled in) and returns the input, or throws `invalid_request`. */
export function validateInput<T>(schema: TObject, input: unknown, source: InputSource, known: FieldProblem[] = []): T {
  let validators = compiled.get(schema);
  if (!validators) {
    validators = { strict: strict.compile(schema), coercing: coercing.compile(schema) };
    compiled.set(schema, validators);
  }
  const validate = source === 'query' ? validators.coercing : validators.strict;
  const problems = [...known, ...nulCharacters(input, '')];
  if (validate(input) && problems.length === 0) return input as T;
  const reported = new Set(problems.map((p) => p.field));
  throw AppError.invalid([...problems, ...describeErrors(validate.errors ?? [], schema).filter((p) => !reported.has(p.field))]);
}

/** PostgreSQL text cannot hold U+0000, so a string carrying one is refused here rather than failing in SQL. */
function nulCharacters(value: unknown, field: string): FieldProblem[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [{ field, problem: 'must not contain NUL characters' }] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulCharacters(item, `${field}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => nulCharacters(item, field ? `${field}.${key}` : key));
  }
  return [];
}

export function describeErrors(errors: ErrorObject[], schema: TObject): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // One problem per field: the first is the most basic (an empty title is "too short", not also "wrong form").
  const seen = new Set<string>();
  // An anyOf failure also reports each branch's failure; the anyOf line alone says it best.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && anyOfPaths.has(error.instancePath)) continue;
    const problem = describe(error, schema);
    if (!seen.has(problem.field)) {
      seen.add(problem.field);
      problems.push(problem);
    }
  }
  return problems;
}

function describe(error: ErrorObject, schema: TObject): FieldProblem {
  const base = fieldName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: join(base, String(params.missingProperty)), problem: 'is required' };
    case 'additionalProperties': {
      const known = base === '' ? Object.keys(schema.properties).join(', ') : '';
      const hint = known ? ` (known fields: ${known})` : '';
      return { field: join(base, String(params.additionalProperty)), problem: `is not a known field${hint}` };
    }
    case 'enum':
      return { field: base, problem: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'type':
      return { field: base, problem: base === '' ? 'the input must be a JSON object' : `must be ${article(String(params.type))}` };
    case 'format':
      return { field: base, problem: `must be a valid ${params.format === 'date-time' ? 'ISO 8601 date-time' : params.format}` };
    case 'anyOf':
      return { field: base, problem: 'does not match any of the accepted forms' };
    case 'uniqueItems':
      return { field: base, problem: 'must not contain duplicates' };
    case 'pattern':
      return { field: base, problem: 'is not in the accepted form' };
    default:
      return { field: base, problem: error.message ?? 'is invalid' };
  }
}

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : join(name, part)), '');
}

function join(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}

function article(type: string): string {
  const kinds = type.split(',');
  const words = kinds.map((t) => (t === 'integer' ? 'an integer' : t === 'object' ? 'an object' : t === 'array' ? 'an array' : `a ${t}`));
  return words.join(' or ');
}
