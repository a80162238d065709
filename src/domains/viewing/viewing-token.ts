/**
 * The viewing token a watch or embed page carries: it names the video and a fresh session id (one
 * per page view) and expires after a day, under an HMAC with the service secret. POST /collect
 * accepts events only with a valid token, so a client can report viewing only of videos it was
 * shown, and only into the session the page was given.
 */
import { createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';

export const VIEWING_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type ViewingTokenCheck = { ok: true; videoId: string; sessionId: string } | { ok: false; reason: 'invalid' | 'expired' };

const TOKEN = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

export function createViewingTokens(secret: string) {
  const key = createSecretKey(Buffer.from(secret));
  const sign = (videoId: string, sessionId: string, expiry: string) =>
    createHmac('sha256', key).update(`view:${videoId}.${sessionId}.${expiry}`).digest('base64url');
  return {
    /** A token for one page view of the video, with the session id it binds. */
    issue(videoId: string, now: Date): { token: string; sessionId: string; expiresAt: Date } {
      const sessionId = randomUUID();
      const expiresAt = new Date(now.getTime() + VIEWING_TOKEN_LIFETIME_MS);
      const expiry = String(Math.floor(expiresAt.getTime() / 1000));
      return { token: `${videoId}.${sessionId}.${expiry}.${sign(videoId, sessionId, expiry)}`, sessionId, expiresAt };
    },
    check(token: string, now: Date): ViewingTokenCheck {
      const match = TOKEN.exec(token);
      if (!match) return { ok: false, reason: 'invalid' };
      const [, videoId, sessionId, expiry, signature] = match as unknown as [string, string, string, string, string];
      if (!timingSafeEqual(Buffer.from(sign(videoId, sessionId, expiry)), Buffer.from(signature))) return { ok: false, reason: 'invalid' };
      if (Number(expiry) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, videoId, sessionId };
    },
  };
}

export type ViewingTokens = ReturnType<typeof createViewingTokens>;
