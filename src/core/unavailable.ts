/**
 * Tells a dependency outage (PostgreSQL unreachable, connection lost, pool exhausted) from a bug, so
 * the caller gets 503 with Retry-After instead of a 500 (DESIGN §7).
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, crash).
const SQLSTATE_PREFIXES = ['08', '57P'];
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Connection terminated unexpectedly/i,
  /Client has encountered a connection error/i,
];

export function describeUnavailable(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const isOutage =
    (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_PREFIXES.some((p) => code.startsWith(p)))) ||
    MESSAGES.some((m) => m.test(error.message)) ||
    (error instanceof AggregateError && error.errors.some((e) => describeUnavailable(e) !== undefined));
  return isOutage ? 'The database is unavailable right now. Retry in a few seconds.' : undefined;
}
