/**
 * One POST /collect as a player's browser sends it, for the load generator and the freshness probe:
 * the answer's status and body text, or status 0 and the error's message when no answer came.
 * `forwardedFor` is the client address as a load balancer in front would pass it on: the service
 * runs with CUEPOINT_TRUSTED_PROXIES=127.0.0.1, so each simulated viewer draws from its own
 * address's limit (a real player sends a batch every 5 s; the bench's, as fast as it is answered).
 */
import type { Pool } from 'undici';

/** The proxy the service trusts: the load generator and the probe connect from it. */
export const BENCH_TRUSTED_PROXIES = '127.0.0.1';

/** The address of the `n`th page view, in the benchmarking range 198.18.0.0/15 (131,072 of them, reused in turn). */
export function benchClientAddress(n: number): string {
  const host = n % 131_072;
  return `198.${18 + (host >> 16)}.${(host >> 8) & 0xff}.${host & 0xff}`;
}

export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

export async function postBatch(pool: Pool, body: string, forwardedFor?: string): Promise<{ status: number; text: string }> {
  try {
    const response = await pool.request({
      path: '/collect',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': BROWSER,
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body,
    });
    return { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    return { status: 0, text: (error as Error).message };
  }
}
