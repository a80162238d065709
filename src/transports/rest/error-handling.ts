/**
 * Errors that happen outside an operation (unknown paths, bodies Fastify cannot parse, bodies too
 * large, requests Node's HTTP parser refuses before Fastify sees them) get the same error body as
 * everything else, as JSON, and never a stack trace. A database outage in a route outside the
 * pipeline (the public media, poster and upload routes) is a 503 with Retry-After here, the same
 * answer the pipeline gives.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../core/errors.ts';
import { outageError } from '../../core/pipeline/unavailable.ts';

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
    if (appError.code === 'service_unavailable') request.log.warn({ err: error }, 'database unavailable');
    else if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(appError.status).headers(appError.headers).send(errorBody(appError, request.id));
  });
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  const outage = outageError(error);
  if (outage) return outage;
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

/** Node's HTTP parser errors, by code, as the problem to name (all but two are a 400). */
const PARSER_PROBLEMS: Record<string, { field: string; problem: string }> = {
  HPE_INVALID_CONTENT_LENGTH: { field: 'Content-Length', problem: 'must be a whole number of bytes, sent once' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { field: 'Content-Length', problem: 'must be a whole number of bytes, sent once' },
  HPE_INVALID_TRANSFER_ENCODING: {
    field: 'Transfer-Encoding',
    problem: 'must be chunked, the one transfer coding spoken here, and not sent together with Content-Length',
  },
  HPE_INVALID_CHUNK_SIZE: { field: 'body', problem: 'has a chunk size that is not a hexadecimal number' },
  HPE_INVALID_METHOD: { field: 'method', problem: 'is not an HTTP method' },
  HPE_INVALID_URL: { field: 'path', problem: 'is not a valid request target' },
  HPE_INVALID_VERSION: { field: 'version', problem: 'must be HTTP/1.1 or HTTP/1.0' },
  HPE_INVALID_HEADER_TOKEN: { field: 'headers', problem: 'hold a line that is not a valid header (name: value)' },
};

/**
 * Requests Node's HTTP parser refuses before any route runs (a malformed Content-Length, headers over
 * its 16 KiB limit, a request line that is not HTTP, headers that never finish): answered with the
 * common error body as JSON, then the connection is closed, as Node itself would. Passed to Fastify
 * as its `clientErrorHandler` option; Node and Fastify would otherwise answer in their own shapes.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer; a response already under way cannot be replaced.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const appError = clientErrorOf(error.code);
  // The code and reason only: the raw bytes Node attaches may hold a credential.
  this.log.debug({ code: error.code, reason: (error as { reason?: string }).reason, requestId }, 'request refused by the HTTP parser');
  const body = JSON.stringify(errorBody(appError, requestId));
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_TEXT[appError.status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function clientErrorOf(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('headers_too_large', 'The request line and headers are larger than this service accepts (16 KiB in all).');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('request_timeout', 'The request headers did not arrive in time; send the whole request again.');
  }
  const known = code !== undefined && Object.hasOwn(PARSER_PROBLEMS, code) ? PARSER_PROBLEMS[code] : undefined;
  return AppError.invalid([known ?? { field: '', problem: 'the request is not valid HTTP/1.1' }]);
}
