/**
 * The signed tokens the public pages carry, each naming what it was issued for, a fresh page id
 * and an expiry a day later, under an HMAC with the service secret and the token's purpose:
 *
 * - a viewing token (watch and embed pages, and each step of the route player) names the video and
 *   a session id, one per page view. POST /collect accepts events only with a valid one, so a client
 *   can report viewing only of videos it was shown, and only into the session the page was given;
 * - a route token (the route player, src/domains/routes/player/route-token.ts) names the route and a visit
 *   id, and is what POST /r/{route_id}/events and /lead accept.
 *
 * The purpose is part of what is signed, so a token of one kind never passes for the other.
 */
import { createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';

export const VIEWING_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type PageTokenPurpose = 'view' | 'route';

export type PageTokenCheck = { ok: true; subjectId: string; pageId: string } | { ok: false; reason: 'invalid' | 'expired' };

export type ViewingTokenCheck = { ok: true; videoId: string; sessionId: string } | { ok: false; reason: 'invalid' | 'expired' };

const TOKEN = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/** Issues and checks tokens of one purpose: `subject.page.expiry.signature`. */
export function createPageTokens(secret: string, purpose: PageTokenPurpose) {
  const key = createSecretKey(Buffer.from(secret));
  const sign = (subjectId: string, pageId: string, expiry: string) =>
    createHmac('sha256', key).update(`${purpose}:${subjectId}.${pageId}.${expiry}`).digest('base64url');
  return {
    /** A token for one page view of the subject (a video, a route), with the page id it binds. */
    issue(subjectId: string, now: Date): { token: string; pageId: string; expiresAt: Date } {
      const pageId = randomUUID();
      const expiresAt = new Date(now.getTime() + VIEWING_TOKEN_LIFETIME_MS);
      const expiry = String(Math.floor(expiresAt.getTime() / 1000));
      return { token: `${subjectId}.${pageId}.${expiry}.${sign(subjectId, pageId, expiry)}`, pageId, expiresAt };
    },
    check(token: string, now: Date): PageTokenCheck {
      const match = TOKEN.exec(token);
      if (!match) return { ok: false, reason: 'invalid' };
      const [, subjectId, pageId, expiry, signature] = match as unknown as [string, string, string, string, string];
      if (!timingSafeEqual(Buffer.from(sign(subjectId, pageId, expiry)), Buffer.from(signature))) return { ok: false, reason: 'invalid' };
      if (Number(expiry) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, subjectId, pageId };
    },
  };
}

export function createViewingTokens(secret: string) {
  const tokens = createPageTokens(secret, 'view');
  return {
    /** A token for one page view of the video, with the session id it binds. */
    issue(videoId: string, now: Date): { token: string; sessionId: string; expiresAt: Date } {
      const { token, pageId, expiresAt } = tokens.issue(videoId, now);
      return { token, sessionId: pageId, expiresAt };
    },
    check(token: string, now: Date): ViewingTokenCheck {
      const checked = tokens.check(token, now);
      return checked.ok ? { ok: true, videoId: checked.subjectId, sessionId: checked.pageId } : checked;
    },
  };
}

export type ViewingTokens = ReturnType<typeof createViewingTokens>;
