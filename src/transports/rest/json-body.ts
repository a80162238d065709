/**
 * The JSON body parser for the API and MCP: Fastify's own (which refuses `__proto__` and
 * `constructor.prototype` keys), behind a scan of the text that refuses, before parsing, nesting
 * deeper and arrays or objects larger than any input needs (core/pipeline/input-bounds.ts): parsing 1 MB of
 * `[[[[…` holds the process for about a second, and MCP's SDK copies every argument it is sent.
 * Refusals are `400 invalid_request` in the common error body.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.ts';
import { jsonTextProblem } from '../../core/pipeline/input-bounds.ts';

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const shape = jsonTextProblem(text);
    if (shape) {
      done(AppError.invalid([{ field: '', problem: shape }]), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      // Fastify says "invalid JSON" for valid JSON that has a prototype key too; say which it is.
      if (error && text.length > 0 && isJson(text)) {
        done(
          AppError.invalid([
            {
              field: '',
              problem: 'the body has a field named __proto__, or a constructor field with a prototype; such fields are refused',
            },
          ]),
          undefined,
        );
        return;
      }
      done(error, value);
    });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
