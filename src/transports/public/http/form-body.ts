/**
 * The account and dashboard pages' form bodies (application/x-www-form-urlencoded, at most 4 KiB unless
 * a route allows more): fields as strings, the first of each name; every value of a repeated name (a
 * list of checkboxes) through formValues. A JSON or multipart body is refused by Fastify as an
 * unsupported type.
 */
import type { FastifyInstance } from 'fastify';

export const FORM_BODY_LIMIT = 4 * 1024;

const ALL_VALUES = Symbol('every value of each field');

export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> & { [ALL_VALUES]?: Map<string, string[]> } = {};
      const all = new Map<string, string[]>();
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (!(name in fields)) fields[name] = value;
        all.set(name, [...(all.get(name) ?? []), value]);
      }
      Object.defineProperty(fields, ALL_VALUES, { value: all, enumerable: false });
      done(null, fields);
    },
  );
}

export function formField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value a field had, in order (checkboxes sharing a name); empty when it was not sent. */
export function formValues(body: unknown, name: string): string[] {
  const all = (body as { [ALL_VALUES]?: Map<string, string[]> } | undefined)?.[ALL_VALUES];
  return all?.get(name) ?? [];
}
