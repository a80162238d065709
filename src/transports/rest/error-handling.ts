/**
 * Errors that happen outside an operation (unknown paths, bodies Fastify cannot parse, bodies too
 * large) get the same error body as everything else, and never a stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../core/errors.ts';

/**
 * Errors the router raises before any route runs (a malformed percent-encoding, an over-long path
 * segment); passed to Fastify as its `frameworkErrors` option.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problem =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path segment is too long to be an id' : 'the URL is not validly percent-encoded';
  void reply.code(400).send(errorBody(AppError.invalid([{ field: 'path', problem }]), request.id));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError(
      'not_found',
      `No route ${request.method} ${request.url.split('?')[0]}. The API lives under /v1; see /v1/openapi.json.`,
    );
    return reply.code(404).send(errorBody(error, request.id));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(appError.status).headers(appError.headers).send(errorBody(appError, request.id));
  });
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than this service accepts (1 MiB).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return AppError.invalid([{ field: 'Content-Type', problem: 'must be application/json' }]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppError.invalid([{ field: '', problem: 'the body is empty; send a JSON object, {} if there is nothing to set' }]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return AppError.invalid([{ field: 'Content-Length', problem: 'does not match the body' }]);
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return AppError.invalid([{ field: '', problem: 'the body is not valid JSON' }]);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return AppError.invalid([{ field: '', problem: 'the request could not be read' }]);
  }
  return new AppError('internal', 'Something went wrong on our side; it has been logged. Retrying once is safe.');
}
