/**
 * Tells a dependency outage (PostgreSQL unreachable, connection lost, pool exhausted, a query or
 * connection that timed out) from a bug, so the caller gets 503 with Retry-After instead of a 500
 * (DESIGN §7). A statement that waited too long for another transaction's lock gets a 503 too, but
 * one that says what happened: the database is up, other writes held the same rows. Every surface (the pipeline, the REST error handler behind the public pages and
 * uploads, /collect, MCP) maps an outage through outageError(), so they all answer alike.
 */
import { AppError } from '../errors.ts';

/** What a 503 tells the caller to wait before retrying. */
export const RETRY_AFTER_SECONDS = 5;

/** What a 503 for a lock wait tells the caller to wait: the other writes are usually done by then. */
const LOCK_WAIT_RETRY_AFTER_SECONDS = 1;

/** lock_not_available: lock_timeout fired while the statement waited for another transaction's lock. */
const LOCK_WAIT = '55P03';

/** A statement gave up waiting for rows another transaction holds: the database is up, just busy with them. */
export function isLockWait(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === LOCK_WAIT;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, crash), and
// two single states: 57014 (query_canceled: statement_timeout fired, the server is too slow to
// answer in time) and 53300 (too_many_connections).
const SQLSTATE_PREFIXES = ['08', '57P', '57014', '53300'];
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  // pg's own client-side timeout (query_timeout): the server did not answer at all, e.g. frozen.
  /^Query read timeout$/,
];

/**
 * A dependency other than the database (the media store) could not be reached or answered with a
 * server error; its message says which, in words a caller can read.
 */
export class DependencyUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DependencyUnavailableError';
  }
}

export function describeUnavailable(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof DependencyUnavailableError) return error.message;
  if (isLockWait(error)) {
    return 'Other requests are changing the same records right now, and this one waited too long for them. Retry in a moment.';
  }
  const code = (error as { code?: unknown }).code;
  const isOutage =
    (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_PREFIXES.some((p) => code.startsWith(p)))) ||
    MESSAGES.some((m) => m.test(error.message)) ||
    (error instanceof AggregateError && error.errors.some((e) => describeUnavailable(e) !== undefined));
  return isOutage ? 'The database is unavailable right now. Retry in a few seconds.' : undefined;
}

/**
 * The 503 `service_unavailable` (with Retry-After) for an outage, or for a lock wait that ran out (the
 * database is up; the message says so and the wait is shorter); undefined for anything else.
 */
export function outageError(error: unknown): AppError | undefined {
  const message = describeUnavailable(error);
  if (message === undefined) return undefined;
  return new AppError('service_unavailable', message, undefined, retryAfter(isLockWait(error) ? LOCK_WAIT_RETRY_AFTER_SECONDS : undefined));
}

/** The Retry-After header every 503 carries. */
export function retryAfter(seconds = RETRY_AFTER_SECONDS): Record<string, string> {
  return { 'Retry-After': String(seconds) };
}
