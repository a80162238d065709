/**
 * Driving the sign-in and dashboard pages as a browser would, over inject(): form posts with the
 * service's own Origin, the session cookie carried from answer to answer, and a client address of the
 * test's own (the sign-in lockout counts failures per address in the database every test shares).
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const OWN_ORIGIN = 'http://localhost:3000';

/** A client address no other test uses (for the lockout's per-address count). */
export function testAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface Browser {
  /** The session cookie held now ("name=value"), if any. */
  cookie: string | undefined;
  address: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A JSON POST, as the pages' scripts send one (the passkey ceremonies). */
  postJson(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** A browser with a cookie jar of one cookie, sending from `address`. */
export function browser(app: FastifyInstance, address = testAddress()): Browser {
  const jar: Browser = {
    cookie: undefined,
    address,
    async get(url, headers = {}) {
      const response = await app.inject({
        method: 'GET',
        url,
        remoteAddress: address,
        headers: { ...cookieHeader(jar.cookie), ...headers },
      });
      keep(jar, response);
      return response;
    },
    async post(url, fields, headers = {}) {
      const response = await app.inject({
        method: 'POST',
        url,
        remoteAddress: address,
        // A header given as '' is left out (an older browser sends no Sec-Fetch-Site).
        headers: withoutBlank({
          'content-type': 'application/x-www-form-urlencoded',
          origin: OWN_ORIGIN,
          'sec-fetch-site': 'same-origin',
          ...cookieHeader(jar.cookie),
          ...headers,
        }),
        payload: new URLSearchParams(fields).toString(),
      });
      keep(jar, response);
      return response;
    },
    async postJson(url, body, headers = {}) {
      const response = await app.inject({
        method: 'POST',
        url,
        remoteAddress: address,
        headers: withoutBlank({
          'content-type': 'application/json',
          origin: OWN_ORIGIN,
          'sec-fetch-site': 'same-origin',
          ...cookieHeader(jar.cookie),
          ...headers,
        }),
        payload: JSON.stringify(body),
      });
      keep(jar, response);
      return response;
    },
  };
  return jar;
}

function withoutBlank(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
}

function cookieHeader(cookie: string | undefined): Record<string, string> {
  return cookie ? { cookie } : {};
}

function keep(jar: Browser, response: LightMyRequestResponse): void {
  const set = response.headers['set-cookie'];
  const value = Array.isArray(set) ? set[0] : set;
  if (!value) return;
  const pair = value.split(';')[0] as string;
  jar.cookie = /Max-Age=0/.test(value) ? undefined : pair;
}

/** The CSRF token a page's forms carry. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('the page has no form with a CSRF token');
  return match[1] as string;
}

/** Signs in with email and password; the browser then holds the session. Throws unless it worked. */
export async function signIn(app: FastifyInstance, email: string, password: string, address?: string): Promise<Browser> {
  const person = browser(app, address);
  const response = await person.post('/sign-in', { email, password });
  if (response.statusCode !== 303 || !person.cookie)
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return person;
}
