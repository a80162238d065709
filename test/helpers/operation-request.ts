/**
 * Turns an operation and a flat input into the REST request a client would send: path ids into the
 * path, the rest into the query string (GET, DELETE) or a JSON body. Catalog-wide suites use it to
 * call every operation without knowing any of them, with ids of their choosing wherever it takes one.
 */
import type { AnyOperation } from '../../src/core/operation.ts';
import { pathParams } from '../../src/core/operation.ts';
import { EVERY_ITEM, type IdSlot, idSlots } from '../../src/core/resource-ids.ts';

export function restRequest(op: AnyOperation, input: Record<string, unknown>): { method: string; url: string; body?: unknown } {
  const rest = { ...input };
  let path = op.path;
  for (const name of pathParams(op.path)) {
    path = path.replace(`{${name}}`, encodeURIComponent(String(rest[name])));
    delete rest[name];
  }
  const url = `/v1${path}`;
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) query.set(key, Array.isArray(value) ? value.join(',') : String(value));
    const qs = query.toString();
    return { method: op.method, url: qs ? `${url}?${qs}` : url };
  }
  return { method: op.method, url, body: rest };
}

/** Whether an id slot is a path parameter (`{video_id}`), so another workspace's id there must be `not_found`. */
export function isPathSlot(op: AnyOperation, slot: IdSlot): boolean {
  return slot.path.length === 1 && pathParams(op.path).includes(slot.path[0] as string);
}

/**
 * The operation's example input with an id put in every slot the input schema annotates (`x-resource`):
 * `idsFor(slot)` answers the ids for that slot, one for a single id, several for an array of ids.
 * Optional slots the example leaves out are filled too, so filters and body fields are reached.
 */
export function inputWithIds(op: AnyOperation, idsFor: (slot: IdSlot) => readonly string[]): Record<string, unknown> {
  let input: unknown = structuredClone(op.example);
  for (const slot of idSlots(op.input)) input = place(input, slot.path, idsFor(slot));
  return input as Record<string, unknown>;
}

function place(target: unknown, path: readonly string[], ids: readonly string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return ids[0];
  if (head === EVERY_ITEM) {
    if (rest.length === 0) return [...ids];
    const items = Array.isArray(target) && target.length > 0 ? target : [{}];
    return items.map((item) => place(item, rest, ids));
  }
  const object: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...target } : {};
  object[head] = place(object[head], rest, ids);
  return object;
}

/**
 * An input as a client would really send it: `example` (the operation's own unless given) with ids put
 * only where it already holds one (in an array of objects, only in the items that hold that field), in
 * the path parameters and required fields, and in the slots `also` names, where the example has none
 * (in an array of objects, its first item). So one slot can be given an id it does not have in the
 * example without filling every optional slot, which would make an input no client sends (a booking
 * branch that also plays a step).
 */
export function inputWithIdsAsGiven(
  op: AnyOperation,
  idsFor: (slot: IdSlot) => readonly string[],
  { example = op.example, also = () => false }: { example?: unknown; also?: (slot: IdSlot) => boolean } = {},
): Record<string, unknown> {
  let input: unknown = structuredClone(example);
  const required = new Set((op.input as { required?: string[] }).required ?? []);
  for (const slot of idSlots(op.input)) {
    const force = also(slot) || isPathSlot(op, slot) || (slot.path.length === 1 && required.has(slot.path[0] as string));
    if (force || holds(input, slot.path)) input = placeWhereHeld(input, slot.path, idsFor(slot), force);
  }
  return input as Record<string, unknown>;
}

/** Whether `value` holds something at `path` (in any item, for an array). */
function holds(value: unknown, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined) return value !== undefined;
  if (head === EVERY_ITEM) return Array.isArray(value) && (rest.length === 0 || value.some((item) => holds(item, rest)));
  return typeof value === 'object' && value !== null && !Array.isArray(value) && holds((value as Record<string, unknown>)[head], rest);
}

function placeWhereHeld(target: unknown, path: readonly string[], ids: readonly string[], force: boolean): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return ids[0];
  if (head === EVERY_ITEM) {
    if (rest.length === 0) return [...ids];
    const items = Array.isArray(target) && target.length > 0 ? target : [{}];
    const holding = items.some((item) => holds(item, rest));
    return items.map((item, index) =>
      holds(item, rest) || (!holding && force && index === 0) ? placeWhereHeld(item, rest, ids, force) : item,
    );
  }
  const object: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...target } : {};
  object[head] = placeWhereHeld(object[head], rest, ids, force);
  return object;
}
