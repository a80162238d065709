/**
 * The engagement score's arithmetic: half-life decay, the 0–100 curve, a rank that orders leads by
 * their points now whatever the time, and what a session's batches earn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addEngagement, decayedPoints, engagementScore, HALF_LIFE_DAYS, rankOf, sessionPoints } from './engagement-score.ts';

const DAY = 86_400_000;
const t0 = new Date('2026-03-01T00:00:00.000Z');
const later = (days: number) => new Date(t0.getTime() + days * DAY);

test('points halve every half-life and the score follows the curve', () => {
  assert.equal(decayedPoints({ points: 40, at: t0 }, later(HALF_LIFE_DAYS)), 20);
  assert.equal(decayedPoints({ points: 40, at: null }, later(1)), 0);
  assert.equal(engagementScore({ points: 0, at: t0 }, t0), 0);
  assert.equal(engagementScore({ points: 40, at: t0 }, t0), Math.round(100 * (1 - Math.exp(-1))));
  assert.ok(engagementScore({ points: 10_000, at: t0 }, t0) <= 100);
});

test('an older activity adds at full weight without moving the clock back', () => {
  const state = addEngagement({ points: 10, at: later(10) }, 5, later(2));
  assert.equal(state.engagement_points, 15);
  assert.equal(state.engagement_at.getTime(), later(10).getTime());
});

test('ordering by rank is ordering by current points, whenever the points were earned', () => {
  // A: 40 points 60 days ago (10 now); B: 12 points today.
  const a = addEngagement({ points: 0, at: null }, 40, t0);
  const b = addEngagement({ points: 0, at: null }, 12, later(60));
  assert.ok(b.engagement_rank > a.engagement_rank);
  assert.ok(decayedPoints({ points: 12, at: later(60) }, later(61)) > decayedPoints({ points: 40, at: t0 }, later(61)));
  assert.equal(rankOf(0, t0), 0);
});

test('a session earns its return once, its minutes up to the cap, its share and its clicks', () => {
  assert.equal(sessionPoints({ newSession: true, addedSeconds: 60, addedShare: 0.5, addedCtaClicks: 1, secondsBefore: 0 }), 2 + 1 + 4 + 5);
  assert.equal(
    sessionPoints({ newSession: false, addedSeconds: 120, addedShare: 0, addedCtaClicks: 0, secondsBefore: 540 }),
    1,
    'capped at 10 minutes',
  );
  assert.equal(sessionPoints({ newSession: false, addedSeconds: 0, addedShare: -0.1, addedCtaClicks: 0, secondsBefore: 0 }), 0);
});
