/**
 * What an S3 call's failure means to the caller. The store unreachable, too slow, failing (5xx) or
 * throttling is an outage: MediaStoreUnavailableError, which a request answers 503 with Retry-After
 * and a job waits out. A key that is not there is a miss. Anything else (access denied, no such
 * bucket, a signature the store refuses) is a misconfiguration or a bug: it stays the SDK's error, to
 * be logged as one, instead of telling callers to retry what will never work.
 */
import { MediaStoreUnavailableError } from './media-store.ts';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);
/** Error names of the SDK (TimeoutError: a bound of s3-clients.ts ran out) and of S3 meaning "not now". */
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'ServiceUnavailable',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequests',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'BandwidthLimitExceeded',
]);

interface SdkErrorFields {
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(error: Error): number | undefined {
  return (error as SdkErrorFields).$metadata?.httpStatusCode;
}

export function isStoreOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof MediaStoreUnavailableError) return true;
  const code = (error as SdkErrorFields).code;
  const status = statusOf(error);
  return (
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    TRANSIENT_NAMES.has(error.name) ||
    status === 429 ||
    (status !== undefined && status >= 500) ||
    // Node tries every address of a host name and reports all the refusals together.
    (error instanceof AggregateError && error.errors.some(isStoreOutage))
  );
}

/** The error to throw for a failed S3 call: MediaStoreUnavailableError (with the SDK's as its cause) for an outage, else the SDK's own. */
export function storeFailure(error: unknown): unknown {
  if (error instanceof MediaStoreUnavailableError || !isStoreOutage(error)) return error;
  return new MediaStoreUnavailableError({ cause: error });
}

/**
 * The key is not there: HeadObject's bodiless 404 (NotFound) or GetObject's NoSuchKey. A missing
 * bucket stays an error (NoSuchBucket), though a HEAD cannot tell it apart: its 404 has no body.
 */
export function isMissingKey(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey');
}
