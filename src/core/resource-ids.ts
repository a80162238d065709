/**
 * Where an input schema takes ids and what they refer to, read from the `x-resource` annotation that
 * `ResourceId` writes. `checkCatalog` uses it to refuse an id-looking field without the annotation;
 * the catalog-wide security suites use it to put another workspace's real ids wherever an operation
 * takes one: path, query, body, arrays of ids, fields of nested objects.
 */
import { RESOURCE_KEYWORD, RESOURCES, type Resource } from './schemas.ts';

type Json = Record<string, unknown>;

/** In an `IdSlot` path, stands for every item of an array. */
export const EVERY_ITEM = '[]';

/** One place an input takes an id. */
export interface IdSlot {
  /** Property names from the top of the input; `EVERY_ITEM` for the items of an array. */
  path: readonly string[];
  resource: Resource;
  /** For an array of ids (the path ends with `EVERY_ITEM`): the fewest items it accepts. */
  minItems?: number;
}

/** The resource a schema's id refers to, looking through `Nullable` and other alternatives. */
export function resourceOf(schema: unknown): Resource | undefined {
  if (!isObject(schema)) return undefined;
  const own = schema[RESOURCE_KEYWORD];
  if (typeof own === 'string') return own as Resource;
  for (const branch of alternativesOf(schema)) {
    const found = resourceOf(branch);
    if (found) return found;
  }
  return undefined;
}

/** Every annotated id in a schema, at most once per path. */
export function idSlots(schema: unknown, path: readonly string[] = []): IdSlot[] {
  if (!isObject(schema)) return [];
  const resource = resourceOf(schema);
  if (resource) return [{ path, resource }];
  const slots: IdSlot[] = [];
  for (const [name, property] of Object.entries(propertiesOf(schema))) slots.push(...idSlots(property, [...path, name]));
  if (isObject(schema.items)) {
    const itemPath = [...path, EVERY_ITEM];
    const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
    for (const slot of idSlots(schema.items, itemPath)) slots.push(slot.path.length === itemPath.length ? { ...slot, minItems } : slot);
  }
  for (const branch of alternativesOf(schema)) slots.push(...idSlots(branch, path));
  const seen = new Set<string>();
  return slots.filter((slot) => {
    const key = slot.path.join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Marks a field named like an id that holds another system's id (ExternalId in schemas.ts), not one of ours. */
export const EXTERNAL_ID_KEYWORD = 'x-external-id';

/** Marks a filter that takes an id of any kind of object and never looks it up (AnyObjectId in schemas.ts). */
export const ANY_OBJECT_KEYWORD = 'x-any-object';

/**
 * Problems with the id fields of an input schema: a field named like an id (`video_id`, `video_ids`,
 * `id`) that does not say what it refers to, and an annotation naming no known resource.
 */
export function idAnnotationProblems(schema: unknown, path = ''): string[] {
  if (!isObject(schema)) return [];
  const problems: string[] = [];
  const own = schema[RESOURCE_KEYWORD];
  if (own !== undefined && !(RESOURCES as readonly unknown[]).includes(own)) {
    problems.push(`${path || 'input'} refers to ${JSON.stringify(own)}, which is not one of: ${RESOURCES.join(', ')}`);
  }
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const field = path ? `${path}.${name}` : name;
    if (/(^|_)ids$/.test(name) && !holdsIdArray(property)) {
      problems.push(`${field} looks like a list of ids: declare its items with ResourceId(resource, …)`);
    } else if (
      /(^|_)id$/.test(name) &&
      !resourceOf(property) &&
      !(isObject(property) && (property[EXTERNAL_ID_KEYWORD] === true || property[ANY_OBJECT_KEYWORD] === true))
    ) {
      problems.push(`${field} looks like an id: declare it with ResourceId(resource, …)`);
    }
    problems.push(...idAnnotationProblems(property, field));
  }
  if (isObject(schema.items)) problems.push(...idAnnotationProblems(schema.items, `${path}[]`));
  for (const branch of alternativesOf(schema)) problems.push(...idAnnotationProblems(branch, path));
  return [...new Set(problems)];
}

function holdsIdArray(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (resourceOf(schema.items)) return true;
  return alternativesOf(schema).some(holdsIdArray);
}

function propertiesOf(schema: Json): Json {
  return isObject(schema.properties) ? schema.properties : {};
}

function alternativesOf(schema: Json): unknown[] {
  return [schema.anyOf, schema.oneOf, schema.allOf].flatMap((list) => (Array.isArray(list) ? list : []));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
