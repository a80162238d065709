/**
 * Turns an operation and a flat input into the REST request a client would send: path ids into the
 * path, the rest into the query string (GET, DELETE) or a JSON body. Catalog-wide suites use it to
 * call every operation without knowing any of them.
 */
import type { AnyOperation } from '../../src/core/operation.ts';
import { pathParams } from '../../src/core/operation.ts';

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

/** The input properties that hold ids (uuid-formatted), found from the schema. */
export function idFields(op: AnyOperation): string[] {
  const properties = (op.input as { properties: Record<string, { format?: string; anyOf?: { format?: string }[] }> }).properties;
  return Object.entries(properties)
    .filter(([, schema]) => schema.format === 'uuid' || schema.anyOf?.some((s) => s.format === 'uuid'))
    .map(([name]) => name);
}
