/**
 * One delivery attempt: POST the body to the endpoint through the SSRF guard (its addresses resolved
 * and checked now, not only when the endpoint was registered, and the connection pinned to them),
 * signed Standard Webhooks style. Redirects are never followed: a 3xx is a failed attempt. One
 * deadline covers the connection and the answer, and at most RESPONSE_EXCERPT_BYTES of the answer are
 * read. Never throws: every outcome, good or bad, is an AttemptResult for the delivery log.
 */
import { performance } from 'node:perf_hooks';
import type { OutboundSettings } from '../../core/context.ts';
import { OutboundRequestError } from '../../net/outbound-error.ts';
import { safeFetchBuffered } from '../../net/safe-fetch.ts';
import { parseRetryAfter } from './retry-policy.ts';
import { signatureHeader } from './signature.ts';

export const RESPONSE_EXCERPT_BYTES = 1024;
const CONNECT_TIMEOUT_MS = 5000;
const USER_AGENT = 'Cuepoint-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/** Why an attempt failed, in the words of test_webhook_endpoint and the delivery log. */
export const FAILURE_REASONS = ['dns', 'refused', 'timeout', 'tls', 'non_2xx', 'blocked', 'connection'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface DeliveryRequest {
  url: string;
  /** `webhook-id`: the event id, the same on every attempt, for receivers to deduplicate on. */
  messageId: string;
  body: string;
  secrets: readonly string[];
}

export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The start of the answer's body (at most RESPONSE_EXCERPT_BYTES), or null when there was none. */
  excerpt: string | null;
  failureReason: FailureReason | null;
  /** Written for the endpoint's owner; never the address a hostname resolved to nor a socket error. */
  error: string | null;
  /** What the receiver asked for with Retry-After on a 429 or 5xx, in milliseconds. */
  retryAfterMs: number | null;
  /** 410 Gone: the receiver says the endpoint is no more, so it is disabled. */
  gone: boolean;
}

export async function sendAttempt(
  request: DeliveryRequest,
  options: { outbound: OutboundSettings; now: Date; signal?: AbortSignal },
): Promise<AttemptResult> {
  const timestamp = Math.floor(options.now.getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await safeFetchBuffered(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': request.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(request.messageId, timestamp, request.body, request.secrets),
      },
      body: request.body,
      followRedirects: false,
      allowPrivateNetworks: options.outbound.allowPrivateNetworks,
      lookup: options.outbound.lookup,
      timeoutMs: options.outbound.webhookTimeoutMs,
      connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, options.outbound.webhookTimeoutMs),
      maxBytes: RESPONSE_EXCERPT_BYTES,
      truncate: true,
      signal: options.signal,
    });
    const status = response.status;
    const excerpt = response.body.length > 0 ? response.body.toString('utf8') : null;
    const base = { statusCode: status, durationMs: elapsed(), excerpt, gone: status === 410 };
    if (status >= 200 && status < 300) return { ...base, succeeded: true, failureReason: null, error: null, retryAfterMs: null };
    const throttled = status === 429 || status >= 500;
    return {
      ...base,
      succeeded: false,
      failureReason: 'non_2xx',
      error: describeStatus(status, response.headers.get('location')),
      retryAfterMs: throttled ? parseRetryAfter(response.headers.get('retry-after'), options.now) : null,
    };
  } catch (error) {
    const { reason, message } = describeFailure(error);
    return {
      succeeded: false,
      statusCode: null,
      durationMs: elapsed(),
      excerpt: null,
      failureReason: reason,
      error: message,
      retryAfterMs: null,
      gone: false,
    };
  }
}

function describeStatus(status: number, location: string | null): string {
  if (status >= 300 && status < 400) {
    const where = location ? ` to ${location.slice(0, 200)}` : '';
    return `The endpoint answered HTTP ${status}, a redirect${where}; redirects are not followed, so register the final URL.`;
  }
  if (status === 410) return 'The endpoint answered HTTP 410 Gone, so it was disabled; set active to true to resume it.';
  return `The endpoint answered HTTP ${status}; only 2xx counts as delivered.`;
}

function describeFailure(error: unknown): { reason: FailureReason; message: string } {
  if (!(error instanceof OutboundRequestError)) return { reason: 'connection', message: 'The request could not be sent.' };
  switch (error.reason) {
    case 'dns_failure':
      return { reason: 'dns', message: error.message };
    case 'timeout':
      return { reason: 'timeout', message: error.message };
    case 'tls':
      return { reason: 'tls', message: error.message };
    case 'invalid_url':
    case 'blocked_address':
      return { reason: 'blocked', message: error.message };
    case 'connection_failed':
      if (hasCode(error.cause, 'ECONNREFUSED')) return { reason: 'refused', message: `${error.message} The connection was refused.` };
      return { reason: 'connection', message: error.message };
    default:
      return { reason: 'connection', message: error.message };
  }
}

/** Whether a socket error (or, with several addresses, any of its AggregateError parts) has this code. */
function hasCode(error: unknown, code: string): boolean {
  if (error instanceof AggregateError) return error.errors.some((e) => hasCode(e, code));
  if (error === null || typeof error !== 'object') return false;
  if ((error as { code?: unknown }).code === code) return true;
  return hasCode((error as { cause?: unknown }).cause, code);
}
