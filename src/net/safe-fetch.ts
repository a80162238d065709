/**
 * Fetches a user-supplied URL (video imports, webhook deliveries) through the SSRF guard: each hop's
 * URL is checked and its host resolved and judged (checkUrl), the connection is pinned to those
 * checked addresses, redirects are followed by hand and checked again, and one deadline and one
 * byte cap cover the whole exchange, body included. Every failure is an OutboundRequestError.
 */
import { Readable } from 'node:stream';
import type { Cidr } from './address-policy.ts';
import { checkUrl, hostnameOf, type Lookup, policyFor } from './check-url.ts';
import { abortedError, OutboundRequestError } from './outbound-error.ts';
import { createPinnedClient } from './pinned-connection.ts';

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Kept in memory so a 307/308 redirect can send it again. */
  body?: string | Uint8Array;
  /** The operator's allow-list (Config.allowPrivateNetworks). Default: empty. */
  allowPrivateNetworks?: readonly Cidr[];
  /** Injectable resolver; default dns.lookup with `all: true`. */
  lookup?: Lookup;
  /** Deadline for everything, DNS to the last body byte. Default 30 s. */
  timeoutMs?: number;
  /** Deadline for each TCP/TLS connect, within the overall one. Default 10 s. */
  connectTimeoutMs?: number;
  /** Most response body bytes read; past it the body fails with `too_large`. Default 10 MiB. */
  maxBytes?: number;
  /** Default 5. Past it: `too_many_redirects`. */
  maxRedirects?: number;
  /** false: hand a 3xx back as the response (webhook deliveries treat it as a failure). Default true. */
  followRedirects?: boolean;
  maxUrlLength?: number;
  /** The caller's own cancellation (shutdown, say); fails with `aborted`. */
  signal?: AbortSignal;
}

export interface SafeResponse {
  status: number;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  /** The URLs that redirected, in order. */
  redirects: string[];
  /** The address the answer came from, for logs. */
  remoteAddress: string | undefined;
  /** Fails with an OutboundRequestError past maxBytes or the deadline. Read it or call `cancel`. */
  body: Readable;
  /** Stops reading and closes the connection. */
  cancel(): void;
}

export interface BufferedResponse extends Omit<SafeResponse, 'body' | 'cancel'> {
  body: Buffer;
  /** True when the body went past maxBytes and `truncate` kept only the first maxBytes. */
  truncated: boolean;
}

export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials the caller meant for the first origin only.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
// Bodies that `truncate` cut short, so safeFetchBuffered can say so.
const truncatedBodies = new WeakSet<Readable>();

/** Streams a response; see SafeResponse. */
export function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  return fetchGuarded(input, options, 'fail');
}

/**
 * Reads a small response whole. With `truncate`, a body past maxBytes is cut there instead of
 * failing: a webhook receiver's long reply is not a failed delivery, and we keep only its start.
 */
export async function safeFetchBuffered(
  input: string | URL,
  options: SafeFetchOptions & { truncate?: boolean } = {},
): Promise<BufferedResponse> {
  const response = await fetchGuarded(input, options, options.truncate ? 'truncate' : 'fail');
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  const { status, headers, url, redirects, remoteAddress } = response;
  return { status, headers, url, redirects, remoteAddress, body: Buffer.concat(chunks), truncated: truncatedBodies.has(response.body) };
}

async function fetchGuarded(input: string | URL, options: SafeFetchOptions, overflow: 'fail' | 'truncate'): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? SAFE_FETCH_DEFAULTS.connectTimeoutMs, timeoutMs);
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const policy = policyFor(options.allowPrivateNetworks);

  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundRequestError('timeout', `No complete response within ${timeoutMs / 1000} s.`)),
    timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;

  let url: string | URL = input;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const redirects: string[] = [];
  let current: string | undefined;
  try {
    for (;;) {
      const checked = await checkHop(url, redirects.length > 0, { ...options, signal });
      current = checked.url.href;
      let remoteAddress: string | undefined;
      const client = createPinnedClient(checked.url, {
        addresses: checked.addresses,
        policy,
        connectTimeoutMs,
        onConnected: (address) => {
          remoteAddress = address;
        },
      });
      const release = () => {
        clearTimeout(timer);
        client.destroy().catch(() => {});
      };
      let response: Awaited<ReturnType<typeof client.request>>;
      try {
        response = await client.request({
          path: `${checked.url.pathname}${checked.url.search}`,
          method,
          headers,
          body: body ?? null,
          signal,
          // The overall deadline governs; undici's own 300 s timers must not outlast it.
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        client.destroy().catch(() => {});
        throw error;
      }

      const location = REDIRECT_STATUSES.has(response.statusCode) ? header(response.headers.location) : undefined;
      if (location === undefined || options.followRedirects === false) {
        const declared = Number(header(response.headers['content-length']));
        if (overflow === 'fail' && method !== 'HEAD' && declared > maxBytes) {
          release();
          throw new OutboundRequestError('too_large', `The response is ${declared} bytes, more than the ${maxBytes} allowed.`, {
            url: current,
          });
        }
        signal.addEventListener('abort', release, { once: true });
        const capped = cappedBody(response.body, { maxBytes, overflow, signal, url: current, release });
        // A body destroyed before it was read never runs the reader's clean-up: release here too, or
        // the deadline timer and the connection outlive the response.
        capped.once('close', () => {
          // Destroying an unread undici body reports the abort as an 'error'; it is the one we asked for.
          response.body.on('error', () => {});
          response.body.destroy();
          release();
        });
        return {
          status: response.statusCode,
          headers: toHeaders(response.headers),
          url: current,
          redirects,
          remoteAddress,
          body: capped,
          cancel: () => capped.destroy(),
        };
      }

      // A redirect: drop this connection, then check the next hop exactly like the first.
      client.destroy().catch(() => {});
      redirects.push(current);
      if (redirects.length > maxRedirects) {
        throw new OutboundRequestError('too_many_redirects', `More than ${maxRedirects} redirects.`, { url: current });
      }
      const next = redirectTarget(location, checked.url);
      if (next.origin !== checked.url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      // What browsers do: 303 always, and 301/302 after a POST, continue as a GET without the body.
      if ((response.statusCode === 303 && method !== 'HEAD') || ([301, 302].includes(response.statusCode) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      url = next;
    }
  } catch (error) {
    clearTimeout(timer);
    throw toOutboundError(error, signal, current);
  }
}

/** checkUrl, saying so when it was a redirect that led to the refused URL. */
async function checkHop(url: string | URL, redirected: boolean, options: SafeFetchOptions & { signal: AbortSignal }) {
  try {
    return await checkUrl(url, options);
  } catch (error) {
    if (!redirected || !(error instanceof OutboundRequestError) || error.reason === 'timeout' || error.reason === 'aborted') throw error;
    throw new OutboundRequestError(error.reason, `The server redirected to ${error.url ?? 'a URL'}: ${error.message}`, {
      url: error.url,
      address: error.address,
      cause: error.cause,
    });
  }
}

/** Where a redirect leads, refusing a step down from https to plain http. */
export function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new OutboundRequestError('invalid_url', 'The server redirected to an invalid URL.', { url: from.href });
  }
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw new OutboundRequestError('invalid_url', 'The server redirected from https to plain http, which is refused.', { url: from.href });
  }
  return next;
}

interface CapOptions {
  maxBytes: number;
  overflow: 'fail' | 'truncate';
  signal: AbortSignal;
  url: string;
  release: () => void;
}

/** The response body, counted as it streams; the connection is released however reading ends. */
function cappedBody(source: Readable, cap: CapOptions): Readable {
  let stream: Readable | undefined;
  async function* read() {
    let received = 0;
    try {
      for await (const chunk of source) {
        const bytes = chunk as Buffer;
        if (received + bytes.length > cap.maxBytes) {
          if (cap.overflow === 'fail') {
            throw new OutboundRequestError('too_large', `The response is larger than the ${cap.maxBytes} bytes allowed.`, { url: cap.url });
          }
          if (stream) truncatedBodies.add(stream);
          yield bytes.subarray(0, cap.maxBytes - received);
          return;
        }
        received += bytes.length;
        yield bytes;
      }
    } catch (error) {
      throw toOutboundError(error, cap.signal, cap.url);
    } finally {
      source.destroy();
      cap.release();
    }
  }
  stream = Readable.from(read(), { objectMode: false });
  return stream;
}

/** Maps whatever undici or the socket threw to a reason, keeping the detail as `cause` only. */
function toOutboundError(error: unknown, signal: AbortSignal, url: string | undefined): OutboundRequestError {
  if (error instanceof OutboundRequestError) return error;
  if (signal.aborted) return abortedError(signal, url);
  const code = errorCode(error);
  const host = url ? hostnameOf(new URL(url)) : 'the server';
  if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$|^ETIMEDOUT$/.test(code)) {
    return new OutboundRequestError('timeout', `${host} took too long to answer.`, { url, cause: error });
  }
  if (/^ERR_TLS_|^ERR_SSL_|CERT|^UNABLE_TO_|^EPROTO$/.test(code)) {
    return new OutboundRequestError('tls', `A secure connection to ${host} could not be established.`, { url, cause: error });
  }
  return new OutboundRequestError('connection_failed', `Could not get a response from ${host}.`, { url, cause: error });
}

function errorCode(error: unknown): string {
  // With several addresses, net.connect reports an AggregateError of one error per address.
  const first = error instanceof AggregateError ? error.errors[0] : error;
  const code = (first as { code?: unknown } | null)?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}
