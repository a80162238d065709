/**
 * One POST /collect as a player's browser sends it, for the load generator and the freshness probe:
 * the answer's status and body text, or status 0 and the error's message when no answer came.
 */
import type { Pool } from 'undici';

export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

export async function postBatch(pool: Pool, body: string): Promise<{ status: number; text: string }> {
  try {
    const response = await pool.request({
      path: '/collect',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      body,
    });
    return { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    return { status: 0, text: (error as Error).message };
  }
}
