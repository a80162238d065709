/**
 * The one error outbound requests fail with. `reason` is for code (retry or not, which 4xx to
 * answer); `message` is safe to show the workspace that supplied the URL: it names their own URL,
 * host and the kind of address refused, never an address their hostname resolved to, nor the
 * low-level socket error (those would map our internal network for them). `address` and `cause`
 * carry the details for our logs.
 */

export type OutboundFailureReason =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failure'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'connection_failed'
  | 'tls'
  | 'aborted';

export class OutboundRequestError extends Error {
  override name = 'OutboundRequestError';
  readonly reason: OutboundFailureReason;
  /** The URL of the hop that failed (after redirects, the last one tried). */
  readonly url: string | undefined;
  /** For `blocked_address`: the refused address. For logs, not for the user. */
  readonly address: string | undefined;

  constructor(reason: OutboundFailureReason, message: string, details: { url?: string; address?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.url = details.url;
    this.address = details.address;
  }

  /** Worth trying again later: the far side may recover. Refusals and bad URLs will not. */
  get retryable(): boolean {
    return ['dns_failure', 'timeout', 'connection_failed', 'tls'].includes(this.reason);
  }
}

/** The error for a request stopped by its signal: our deadline (`timeout`) or the caller (`aborted`). */
export function abortedError(signal: AbortSignal, url: string | undefined): OutboundRequestError {
  const reason: unknown = signal.reason;
  if (reason instanceof OutboundRequestError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new OutboundRequestError('timeout', 'The request took too long and was stopped.', { url, cause: reason });
  }
  return new OutboundRequestError('aborted', 'The request was cancelled.', { url, cause: reason });
}
