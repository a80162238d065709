/**
 * URLs of the public media surface. An upload URL is one-time and expiring: it names the video and
 * its expiry and carries an HMAC of both, so it cannot be forged, altered or stretched; single use is
 * enforced by the upload row it points at.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

export interface MediaLinks {
  uploadUrl(videoId: string, expiresAt: Date): string;
  /** Where a ready, non-archived video streams from. */
  playbackUrl(videoId: string): string;
  posterUrl(videoId: string): string;
  /** The HLS master playlist (serve it only when a rendition is ready). */
  hlsUrl(videoId: string): string;
  /** Its transcript as WebVTT captions, for a <track> (src/transports/public/media/captions.ts). */
  captionsUrl(videoId: string): string;
  /** The public watch page, and the page meant for an <iframe> (src/transports/public/watch/watch-pages.ts). */
  watchUrl(videoId: string): string;
  embedUrl(videoId: string): string;
  /** The public route player (src/transports/public/route-player/route-player.ts). */
  routeUrl(routeId: string): string;
  /**
   * The public booking page of an event type (src/transports/public/booking/booking-page.ts); `from` names the video or
   * route that leads there, so the booking records where it came from.
   */
  bookingPageUrl(eventTypeId: string, from?: { videoId?: string; routeId?: string }): string;
  /**
   * The invitee's own links to a booking, holding its secret (shown once, stored hashed: the
   * booking's cancel_token_hash): the calendar file, and the page that cancels it.
   */
  bookingCalendarFileUrl(bookingId: string, secret: string): string;
  bookingCancelUrl(bookingId: string, secret: string): string;
  /** The workspace's public channel page (src/transports/public/channel/channel-page.ts), and the same as Markdown. */
  channelUrl(slug: string): string;
  channelMarkdownUrl(slug: string): string;
  /** Where the workspace's Stripe account sends its webhook events (src/transports/public/stripe/stripe-webhooks.ts). */
  stripeWebhookUrl(workspaceId: string): string;
  /** The page where an invitation is accepted (and the first owner creates their account). */
  invitationUrl(secret: string): string;
  /** The dashboard's sign-in page. */
  signInUrl(): string;
}

export type UploadTokenCheck =
  | { ok: true; videoId: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired'; expiresAt?: Date };

const TOKEN = /^([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * The booking page's path, relative to the public origin, with the video or route leading there in
 * its query: the watch pages link to it as it is, API answers prefix the origin.
 */
export function bookingPagePath(eventTypeId: string, from: { videoId?: string; routeId?: string } = {}): string {
  const query = new URLSearchParams();
  if (from.videoId) query.set('video', from.videoId);
  if (from.routeId) query.set('route', from.routeId);
  const search = query.size > 0 ? `?${query}` : '';
  return `/book/${eventTypeId}${search}`;
}

/** Where a video's captions are, relative to the public origin: pages put it in their <track>, API answers prefix the origin. */
export function hlsPath(videoId: string): string {
  return `/media/${videoId}/hls/master.m3u8`;
}

export function captionsPath(videoId: string): string {
  return `/media/${videoId}/captions.vtt`;
}

/** The page where an invitation is accepted; for callers with no MediaLinks at hand (the CLI). */
export function invitationUrl(publicUrl: string, secret: string): string {
  return `${publicUrl}/invitations/${secret}`;
}

export function createMediaLinks(secret: string, publicUrl: string) {
  const key = createSecretKey(Buffer.from(secret));
  const sign = (videoId: string, expiry: string) => createHmac('sha256', key).update(`upload:${videoId}.${expiry}`).digest('base64url');
  const links: MediaLinks = {
    uploadUrl(videoId, expiresAt) {
      const expiry = String(Math.floor(expiresAt.getTime() / 1000));
      return `${publicUrl}/uploads/${videoId}.${expiry}.${sign(videoId, expiry)}`;
    },
    playbackUrl: (videoId) => `${publicUrl}/media/${videoId}`,
    posterUrl: (videoId) => `${publicUrl}/media/${videoId}/poster.jpg`,
    hlsUrl: (videoId) => `${publicUrl}${hlsPath(videoId)}`,
    captionsUrl: (videoId) => `${publicUrl}${captionsPath(videoId)}`,
    watchUrl: (videoId) => `${publicUrl}/watch/${videoId}`,
    embedUrl: (videoId) => `${publicUrl}/embed/${videoId}`,
    routeUrl: (routeId) => `${publicUrl}/r/${routeId}`,
    bookingPageUrl: (eventTypeId, from = {}) => `${publicUrl}${bookingPagePath(eventTypeId, from)}`,
    bookingCalendarFileUrl: (bookingId, secret) => `${publicUrl}/bookings/${bookingId}/invite.ics?token=${secret}`,
    bookingCancelUrl: (bookingId, secret) => `${publicUrl}/bookings/${bookingId}/cancel?token=${secret}`,
    channelUrl: (slug) => `${publicUrl}/c/${slug}`,
    channelMarkdownUrl: (slug) => `${publicUrl}/c/${slug}.md`,
    stripeWebhookUrl: (workspaceId) => `${publicUrl}/stripe/webhooks/${workspaceId}`,
    invitationUrl: (secret) => invitationUrl(publicUrl, secret),
    signInUrl: () => `${publicUrl}/sign-in`,
  };
  const checkUploadToken = (token: string, now: Date): UploadTokenCheck => {
    const match = TOKEN.exec(token);
    if (!match) return { ok: false, reason: 'invalid' };
    const [, videoId, expiry, signature] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(sign(videoId, expiry));
    if (!timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'invalid' };
    const expiresAt = new Date(Number(expiry) * 1000);
    if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired', expiresAt };
    return { ok: true, videoId, expiresAt };
  };
  return { links, checkUploadToken };
}
