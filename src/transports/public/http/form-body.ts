/**
 * The account pages' form bodies (application/x-www-form-urlencoded, at most 4 KiB): fields as strings,
 * the first of each name. A JSON or multipart body is refused by Fastify as an unsupported type.
 */
import type { FastifyInstance } from 'fastify';

export const FORM_BODY_LIMIT = 4 * 1024;

export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string)) if (!(name in fields)) fields[name] = value;
      done(null, fields);
    },
  );
}

export function formField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
