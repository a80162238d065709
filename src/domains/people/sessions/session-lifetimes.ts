/** DESIGN §10: a session ends after 7 days without use, and 30 days after sign-in whatever happens. */
export const IDLE_LIFETIME_MS = 7 * 24 * 3600 * 1000;
export const ABSOLUTE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** last_seen_at is kept to the minute: a person clicking around costs one write a minute, not one per page. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;
