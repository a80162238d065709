/**
 * The body parser of the endpoints a player may reach with navigator.sendBeacon (POST /collect, POST
 * /r/{route_id}/events): sendBeacon cannot set JSON headers cross-browser, so text/plain is read as
 * JSON too, within the endpoint's own body limit. Too deep or too large a shape is refused before
 * parsing, which is the costly part. Registered inside the endpoint's own Fastify scope, where it
 * replaces the API's JSON parser.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { jsonTextProblem } from '../../../core/pipeline/input-bounds.ts';

export function acceptBeaconJson(scope: FastifyInstance, bodyLimit: number): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    const shape = jsonTextProblem(body as string);
    if (shape) {
      done(AppError.invalid([{ field: '', problem: shape }]), undefined);
      return;
    }
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(AppError.invalid([{ field: '', problem: 'the body is not valid JSON' }]), undefined);
    }
  });
}
