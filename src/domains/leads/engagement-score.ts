/**
 * The lead engagement score (docs/leads-and-outcomes.md, "Engagement score"), maintained as activity
 * arrives instead of recomputed over history.
 *
 * A lead holds engagement points. Each activity adds points (ENGAGEMENT_POINTS); points lose half
 * their weight every HALF_LIFE_DAYS, so recent activity counts most. The score shown is
 * `100 × (1 − e^(−points / SCORE_SCALE))`, rounded: 0 without activity, 50 at about 28 fresh points
 * (a viewer who watched two videos through and clicked once), approaching 100 without reaching it.
 *
 * Stored: the points decayed to the moment of the last activity (`engagement_points`,
 * `engagement_at`) and the rank, the same points carried forward to RANK_EPOCH's frame:
 * `points × 2^((at − epoch) / half-life)`. Decay multiplies every lead's points by the same factor,
 * so ordering by rank is ordering by current points, whatever the time: "most engaged first" is one
 * index scan. The rank grows 2^12 a year; a double holds it for centuries past the epoch.
 */

export const HALF_LIFE_DAYS = 30;
export const SCORE_SCALE = 40;
const RANK_EPOCH_MS = Date.UTC(2025, 0, 1);
const HALF_LIFE_MS = HALF_LIFE_DAYS * 86_400_000;

/** Points per activity. Watching is per session, from what that session adds (see sessionPoints). */
export const ENGAGEMENT_POINTS = {
  /** Each new session of one of the lead's browsers: the lead came back. */
  session: 2,
  /** Per minute watched, capped per session so one long video does not outweigh everything. */
  perMinuteWatched: 1,
  maxMinutesPerSession: 10,
  /** Times the share of the video the session watched (0–1): watching one through is worth 8. */
  fullyWatched: 8,
  ctaClick: 5,
  formSubmitted: 6,
  routeChoice: 3,
  booking: 20,
  purchase: 25,
} as const;

export interface EngagementState {
  points: number;
  at: Date | null;
}

export interface StoredEngagement {
  engagement_points: number;
  engagement_at: Date;
  engagement_rank: number;
}

/** Points decayed from `state.at` to `now` (never grown: an activity dated before the last one counts at full weight then). */
export function decayedPoints(state: EngagementState, now: Date): number {
  if (!state.at || state.points <= 0) return 0;
  const elapsed = Math.max(0, now.getTime() - state.at.getTime());
  return state.points * 2 ** (-elapsed / HALF_LIFE_MS);
}

/** The state after `points` more at `at`, as the three stored columns. */
export function addEngagement(state: EngagementState, points: number, at: Date): StoredEngagement {
  const latest = state.at && state.at > at ? state.at : at;
  const total = decayedPoints(state, latest) + Math.max(0, points);
  return { engagement_points: total, engagement_at: latest, engagement_rank: rankOf(total, latest) };
}

export function rankOf(points: number, at: Date): number {
  return points * 2 ** ((at.getTime() - RANK_EPOCH_MS) / HALF_LIFE_MS);
}

/** The 0–100 score shown for a lead now. */
export function engagementScore(state: EngagementState, now: Date): number {
  const points = decayedPoints(state, now);
  return Math.round(100 * (1 - Math.exp(-points / SCORE_SCALE)));
}

/**
 * The points one batch of a session adds: the session's first batch counts the return, then the
 * minutes and the share of the video it newly watched, and its CTA clicks.
 */
export function sessionPoints(change: {
  newSession: boolean;
  addedSeconds: number;
  addedShare: number;
  addedCtaClicks: number;
  secondsBefore: number;
}): number {
  const cap = ENGAGEMENT_POINTS.maxMinutesPerSession * 60;
  const countedSeconds = Math.max(0, Math.min(cap, change.secondsBefore + change.addedSeconds) - Math.min(cap, change.secondsBefore));
  return (
    (change.newSession ? ENGAGEMENT_POINTS.session : 0) +
    (countedSeconds / 60) * ENGAGEMENT_POINTS.perMinuteWatched +
    Math.max(0, change.addedShare) * ENGAGEMENT_POINTS.fullyWatched +
    Math.max(0, change.addedCtaClicks) * ENGAGEMENT_POINTS.ctaClick
  );
}
