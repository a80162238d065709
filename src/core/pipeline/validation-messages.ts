/**
 * The validator's findings as sentences a developer understands at once, saying what is accepted:
 * "must be at most 100", not Ajv's "must be <= 100"; "must not be blank", not "must match pattern
 * "\S"". A pattern says what it accepts through the `x-pattern-rule` annotation next to it in the
 * schema (see `describedPattern`), since a regular expression explains itself to no one.
 *
 * One problem per field, the most basic first (an empty title is "must not be empty", not also
 * "must not be blank"). For a union, the problems of the branch whose type the value has are
 * reported (an empty scope list is "must list at least one item"), or else which types are accepted.
 */
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors.ts';
import { EARLIEST_YEAR, LATEST_YEAR } from '../values/real-instants.ts';

/** The schema annotation holding what a `pattern` accepts, as the end of "<field> …": "must not be blank". */
export const PATTERN_RULE = 'x-pattern-rule';

/** A `pattern` and the words that explain it, to spread into a string schema. */
export function describedPattern(pattern: string, rule: string): { pattern: string; [PATTERN_RULE]: string } {
  return { pattern, [PATTERN_RULE]: rule };
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
  [PATTERN_RULE]?: string;
};

const FORMATS: Record<string, string> = {
  uuid: 'must be an id in UUID form, such as 0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01',
  'date-time':
    `must be a real date and time with a time zone, in ISO 8601 (RFC 3339) form such as 2030-12-31T23:59:59Z, ` +
    `in the years ${EARLIEST_YEAR} to ${LATEST_YEAR}; leap seconds (:60) are not accepted`,
  date: `must be a calendar day that exists, written YYYY-MM-DD (such as 2030-02-28), in the years ${EARLIEST_YEAR} to ${LATEST_YEAR}`,
  uri: 'must be an absolute URL, such as https://example.com/path',
  email: 'must be an email address, such as name@example.com',
  'time-zone': 'must be an IANA time zone name, such as Europe/Paris or UTC',
  currency: 'must be an ISO 4217 currency code, such as USD or EUR',
  'language-tag': 'must be a BCP 47 language tag naming a known language, such as en, en-US or pt-BR',
};

export function describeErrors(errors: ErrorObject[]): FieldProblem[] {
  const relevant = withinChosenBranches(errors);
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const error of relevant) {
    const problem = describe(error);
    if (!seen.has(problem.field)) {
      seen.add(problem.field);
      problems.push(problem);
    }
  }
  return problems;
}

/**
 * For each failed union: when exactly one branch has the value's type, that branch's problems say
 * what to fix and the union's own line goes; otherwise the union's line (the accepted types) stays
 * and the branches' problems go.
 */
function withinChosenBranches(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (unions.length === 0) return errors;
  const dropped = new Set<ErrorObject>();
  for (const union of unions) {
    const options = (union.schema ?? []) as Schema[];
    const fitting = options.flatMap((option, i) => (hasTypeOf(option, union.data) ? [i] : []));
    const chosen = fitting.length === 1 ? `${union.schemaPath}/${fitting[0]}/` : undefined;
    if (chosen) dropped.add(union);
    for (const error of errors) {
      if (error !== union && error.schemaPath.startsWith(`${union.schemaPath}/`) && !(chosen && error.schemaPath.startsWith(chosen))) {
        dropped.add(error);
      }
    }
  }
  return errors.filter((e) => !dropped.has(e));
}

function hasTypeOf(schema: Schema, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((type) => type === jsonType(value) || (type === 'number' && jsonType(value) === 'integer'));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describe(error: ErrorObject): FieldProblem {
  const field = fieldName(error.instancePath);
  // An error about an object's key (propertyNames) is the key's problem: named at the key itself.
  if (error.propertyName !== undefined && error.keyword !== 'propertyNames') {
    const inner = describe({ ...error, propertyName: undefined });
    return { field: join(field, error.propertyName), problem: `is not an accepted name: it ${inner.problem}` };
  }
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Schema;
  const limit = typeof params.limit === 'number' ? params.limit : Number.NaN;
  switch (error.keyword) {
    case 'required':
      return { field: join(field, String(params.missingProperty)), problem: 'is required' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const known = Object.keys(parent.properties ?? {});
      const hint = known.length > 0 ? ` (known fields: ${known.join(', ')})` : '';
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { field: join(field, name), problem: `is not a known field${hint}` };
    }
    case 'dependentRequired':
    case 'dependencies':
      return { field: join(field, String(params.missingProperty)), problem: `is required when ${String(params.property)} is given` };
    case 'type':
      return { field, problem: field === '' ? 'the input must be a JSON object' : `must be ${typeWords(params.type)}` };
    case 'enum': {
      const values = (params.allowedValues as unknown[]).map(String);
      return { field, problem: values.length === 1 ? `must be ${values[0]}` : `must be one of: ${values.join(', ')}` };
    }
    case 'const':
      return { field, problem: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'format':
      return { field, problem: FORMATS[String(params.format)] ?? `must be in ${String(params.format)} form` };
    case 'pattern':
      return { field, problem: parent[PATTERN_RULE] ?? `must match the regular expression ${String(params.pattern)}` };
    case 'minLength':
      return { field, problem: limit === 1 ? 'must not be empty' : `must be at least ${count(limit)} characters long` };
    case 'maxLength':
      return { field, problem: `must be at most ${count(limit)} characters long` };
    case 'minItems':
      return { field, problem: limit === 1 ? 'must list at least one item' : `must list at least ${count(limit)} items` };
    case 'maxItems':
      return { field, problem: `must list at most ${count(limit)} items` };
    case 'uniqueItems':
      return {
        field,
        problem: `must not list the same value twice (items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are the same)`,
      };
    case 'minProperties':
      return { field, problem: limit === 1 ? 'must set at least one field' : `must set at least ${count(limit)} fields` };
    case 'maxProperties':
      return { field, problem: `must set at most ${count(limit)} fields` };
    case 'minimum':
      return { field, problem: `must be at least ${count(limit)}` };
    case 'maximum':
      return { field, problem: `must be at most ${count(limit)}` };
    case 'exclusiveMinimum':
      return { field, problem: `must be greater than ${count(limit)}` };
    case 'exclusiveMaximum':
      return { field, problem: `must be less than ${count(limit)}` };
    case 'multipleOf':
      return { field, problem: `must be a multiple of ${String(params.multipleOf)}` };
    case 'anyOf':
    case 'oneOf':
      return { field, problem: `must be ${unionWords(error.schema as Schema[])}` };
    case 'propertyNames':
      return { field: join(field, String(params.propertyName)), problem: 'is not an accepted name' };
    case 'contains':
      return { field, problem: 'must list at least one accepted item' };
    default:
      return { field, problem: 'is not accepted here' };
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  const words = types.map((t) => (Object.hasOwn(TYPE_WORDS, t) ? TYPE_WORDS[t] : `a ${t}`));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? 'something else');
}

function unionWords(options: Schema[]): string {
  const types = [...new Set(options.flatMap((option) => (option.type === undefined ? [] : [option.type].flat())))];
  return types.length > 0 ? typeWords(types) : 'in one of the accepted forms';
}

function count(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
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
