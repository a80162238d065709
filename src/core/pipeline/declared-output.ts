/**
 * The declared output of an operation: a copy of a handler's result holding only what its output
 * schema declares, at every depth (objects, array items, record values, nullable branches). The
 * pipeline applies it once, before masking, so REST, MCP and stored idempotent replays all carry the
 * same declared object, and a field no schema declares (an internal column, an unmasked personal
 * field) cannot leave by any transport.
 *
 * Each schema is compiled once into a tree of small functions, so a call costs one walk over the
 * result and no schema interpretation. The handler's object is never changed: results may share
 * objects with constants or with an event already recorded.
 */
import { compileSchema } from '../compile-schema.ts';

type Project = (value: unknown) => unknown;

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/** Keywords that would change which fields are declared, and that no output schema uses yet. */
const UNSUPPORTED = ['allOf', '$ref', 'prefixItems', 'not', 'if', 'dependentSchemas', 'unevaluatedProperties'] as const;

const keep: Project = (value) => value;
const compiled = new WeakMap<object, Project>();

/** The function that turns a value into the declared output of `schema` (compiled on first use, then cached). */
export function declaredOutput(schema: object): Project {
  let project = compiled.get(schema);
  if (!project) {
    project = compile(schema as Schema, '#');
    compiled.set(schema, project);
  }
  return project;
}

function compile(schema: Schema, at: string): Project {
  const unsupported = UNSUPPORTED.find((keyword) => keyword in schema);
  if (unsupported) throw new Error(`Output schema at ${at} uses ${unsupported}, which declaredOutput does not support yet.`);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return compileBranches(branches, at);
  if (schema.properties || schema.patternProperties || isObjectSchema(schema.additionalProperties) || schema.type === 'object') {
    return compileObject(schema, at);
  }
  if (schema.type === 'array' && typeof schema.items === 'object') {
    const item = compile(schema.items, `${at}/items`);
    if (item === keep) return keep;
    return (value) => (Array.isArray(value) ? value.map(item) : value);
  }
  return keep;
}

function compileObject(schema: Schema, at: string): Project {
  const declared = new Map(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, compile(s, `${at}/properties/${key}`)]));
  const patterns = Object.entries(schema.patternProperties ?? {}).map(
    ([pattern, s]) => [new RegExp(pattern, 'u'), compile(s, `${at}/patternProperties/${pattern}`)] as const,
  );
  const extra = schema.additionalProperties;
  const other = isObjectSchema(extra) ? compile(extra, `${at}/additionalProperties`) : extra === true ? keep : undefined;
  if (patterns.length === 0 && !other) return compileClosedObject([...declared]);
  return (value) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (field === undefined) continue;
      const project = declared.get(key) ?? patterns.find(([pattern]) => pattern.test(key))?.[1] ?? other;
      if (!project) continue;
      // A record key is caller data; `__proto__` must become a field, not the copy's prototype.
      Object.defineProperty(out, key, { value: project(field), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
}

/**
 * A closed object (the common case: every video, every page) as generated code that reads each
 * declared key by name and builds the copy in declaration order, so every copy has one shape and
 * nothing else the value holds is even looked at. Keys are embedded as JSON string literals; the
 * projections of nested fields are passed in, not embedded. Like the REST serializer, a key whose
 * value is undefined is left out.
 */
function compileClosedObject(fields: [string, Project][]): Project {
  // An assignment to `__proto__` would set the copy's prototype rather than a field.
  if (fields.some(([key]) => key === '__proto__')) throw new Error('An output schema cannot declare a field named __proto__.');
  const nested = fields.map(([, project]) => project);
  const steps = fields.map(([key, project], i) => {
    const name = JSON.stringify(key);
    return `field = value[${name}]; if (field !== undefined) out[${name}] = ${project === keep ? 'field' : `nested[${i}](field)`};`;
  });
  const source = `return function declared(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out = {};
    let field;
    ${steps.join('\n    ')}
    return out;
  };`;
  return new Function('nested', source)(nested) as Project;
}

/**
 * `anyOf`: the branch the value belongs to. Usually its JSON type decides (`T | null`); when several
 * branches take that type, the first whose projection is valid against it wins, as TypeBox's
 * Value.Clean decides.
 */
function compileBranches(branches: Schema[], at: string): Project {
  const options = branches.map((branch, i) => ({ branch, project: compile(branch, `${at}/anyOf/${i}`) }));
  if (options.every((option) => option.project === keep)) return keep;
  const checks = new Map<Schema, ReturnType<typeof compileSchema>>();
  const check = (branch: Schema, value: unknown) => {
    let validator = checks.get(branch);
    if (!validator) {
      validator = compileSchema(branch as Parameters<typeof compileSchema>[0]);
      checks.set(branch, validator);
    }
    return validator.Check(value);
  };
  return (value) => {
    const kind = jsonType(value);
    const candidates = options.filter((option) => takes(option.branch, kind));
    const [first] = candidates;
    if (!first) return value;
    if (candidates.length === 1) return first.project(value);
    for (const candidate of candidates) {
      const projected = candidate.project(value);
      if (check(candidate.branch, projected)) return projected;
    }
    return first.project(value);
  };
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'boolean' || type === 'number' || type === 'string' ? type : 'object';
}

/** Whether a branch can hold a value of this JSON type (a branch without `type` can hold any). */
function takes(branch: Schema, kind: JsonType): boolean {
  if (branch.type === undefined) {
    if (branch.properties || branch.patternProperties) return kind === 'object';
    return true;
  }
  const types = Array.isArray(branch.type) ? branch.type : [branch.type];
  return types.some((type) => type === kind || (type === 'integer' && kind === 'number'));
}

function isObjectSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
