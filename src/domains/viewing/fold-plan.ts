/**
 * What one fold writes, worked out without the database: stored batches in, the sessions' new
 * states and the rollup differences out, each rollup row once however many batches touched it.
 *
 * A session's batches in one fold are applied together (applyBatch over their events in sequence
 * order). That gives the same state, and the same difference from the state before, as applying
 * them one by one: the state is a function of the set of batches (the union of ranges watched, the
 * sum of seconds played, the clicks), and only the difference between two states reaches the
 * rollups (session-change.ts). So folding is order-free within a session and across sessions, and a
 * fold of many small batches adds exactly what folding them one at a time would.
 */
import { localDay } from '../../core/calendar/time-zone.ts';
import type { ViewingProgress } from '../leads/index.ts';
import type { ViewingEvent } from './collect-batch.ts';
import { applyBatch, isEmptyDelta, type RollupDelta, type SessionState } from './session-change.ts';
import { SLICES, totalLength } from './watched-ranges.ts';

export interface StoredBatch {
  sessionId: string;
  sequence: number;
  workspaceId: string;
  videoId: string;
  viewerId: string | null;
  events: ViewingEvent[];
  receivedAt: Date;
}

export interface SessionRecord extends SessionState {
  id: string;
  workspaceId: string;
  videoId: string;
  viewerId: string;
  /** The workspace-local day the session started: all of its numbers count there. */
  day: string;
  startedAt: Date;
  lastSeenAt: Date;
  lastSequence: number;
}

/** What a new session needs from its video: its length and the workspace's time zone. */
export interface VideoForSessions {
  durationSeconds: number;
  timeZone: string;
}

export interface Totals {
  views: number;
  watchTimeSeconds: number;
  engagement: number;
  completions: number;
  conversions: number;
}

export interface DayRollup extends Totals {
  /** The viewers of the new views: added to the row's sketch. */
  newViewers: string[];
}

export interface WorkspaceDayRollup extends DayRollup {
  /** The videos of the new views: added to the day's sketch of videos viewed. */
  viewedVideos: string[];
}

export interface VideoRollup extends Totals {
  workspaceId: string;
  newViewers: string[];
  reach: number[];
  plays: number[];
  ctaClicks: number[];
}

export interface FoldPlan {
  sessions: SessionRecord[];
  /** Keyed `${videoId} ${day}`. */
  videoDays: Map<string, DayRollup & { videoId: string; workspaceId: string; day: string }>;
  /** Keyed `${workspaceId} ${day}`. */
  workspaceDays: Map<string, WorkspaceDayRollup & { workspaceId: string; day: string }>;
  videos: Map<string, VideoRollup>;
  leadCredits: ViewingProgress[];
  /** Batches of videos deleted since they were stored: nothing left to count them in. */
  dropped: number;
}

export function planFold(
  batches: readonly StoredBatch[],
  sessions: ReadonlyMap<string, SessionRecord>,
  videos: ReadonlyMap<string, VideoForSessions>,
): FoldPlan {
  const plan: FoldPlan = { sessions: [], videoDays: new Map(), workspaceDays: new Map(), videos: new Map(), leadCredits: [], dropped: 0 };
  for (const sessionBatches of Map.groupBy(batches, (batch) => batch.sessionId).values()) {
    const first = sessionBatches[0] as StoredBatch;
    const before = sessions.get(first.sessionId) ?? startSession(sessionBatches, videos.get(first.videoId));
    if (!before) {
      plan.dropped += sessionBatches.length;
      continue;
    }
    const ordered = [...sessionBatches].sort((a, b) => a.sequence - b.sequence);
    const { after, delta } = applyBatch(
      before,
      ordered.flatMap((batch) => batch.events),
    );
    const lastSeen = latest(ordered.map((batch) => batch.receivedAt));
    plan.sessions.push({
      ...before,
      ...after,
      lastSequence: Math.max(before.lastSequence, ...ordered.map((batch) => batch.sequence)),
      lastSeenAt: latest([before.lastSeenAt, lastSeen]),
    });
    if (!isEmptyDelta(delta)) addToRollups(plan, before, delta);
    plan.leadCredits.push({
      workspaceId: before.workspaceId,
      viewerId: before.viewerId,
      change: {
        newSession: delta.views > 0,
        addedSeconds: after.playedSeconds - before.playedSeconds,
        addedShare: watchedShare(after) - watchedShare(before),
        addedCtaClicks: after.ctaClicks - before.ctaClicks,
        secondsBefore: before.playedSeconds,
      },
      at: lastSeen,
    });
  }
  return plan;
}

/**
 * A session's state before its first batch: it starts when its first stored batch was received, on
 * that instant's local day, with the viewer id that batch gave. No video (deleted since): undefined.
 */
function startSession(batches: readonly StoredBatch[], video: VideoForSessions | undefined): SessionRecord | undefined {
  if (!video) return undefined;
  const first = batches.reduce((earliest, batch) => (batch.receivedAt < earliest.receivedAt ? batch : earliest));
  return {
    id: first.sessionId,
    workspaceId: first.workspaceId,
    videoId: first.videoId,
    viewerId: first.viewerId ?? '',
    day: localDay(first.receivedAt, video.timeZone),
    startedAt: first.receivedAt,
    lastSeenAt: first.receivedAt,
    lastSequence: 0,
    durationSeconds: video.durationSeconds,
    watched: [],
    playedSeconds: 0,
    isView: false,
    completed: false,
    ctaClicks: 0,
  };
}

function addToRollups(plan: FoldPlan, session: SessionRecord, delta: RollupDelta): void {
  const totals: Totals = {
    views: delta.views,
    watchTimeSeconds: delta.watchTimeSeconds,
    engagement: delta.engagement,
    completions: delta.completions,
    conversions: delta.conversions,
  };
  const isNewView = delta.views > 0;
  const videoDay = entry(plan.videoDays, `${session.videoId} ${session.day}`, () => ({
    videoId: session.videoId,
    workspaceId: session.workspaceId,
    day: session.day,
    ...emptyTotals(),
    newViewers: [],
  }));
  addTotals(videoDay, totals);
  const workspaceDay = entry(plan.workspaceDays, `${session.workspaceId} ${session.day}`, () => ({
    workspaceId: session.workspaceId,
    day: session.day,
    ...emptyTotals(),
    newViewers: [],
    viewedVideos: [],
  }));
  addTotals(workspaceDay, totals);
  const video = entry(plan.videos, session.videoId, () => ({
    workspaceId: session.workspaceId,
    ...emptyTotals(),
    newViewers: [],
    reach: zeros(),
    plays: zeros(),
    ctaClicks: zeros(),
  }));
  addTotals(video, totals);
  addSlices(video.reach, delta.reach);
  addSlices(video.plays, delta.plays);
  addSlices(video.ctaClicks, delta.ctaClicks);
  if (isNewView) {
    videoDay.newViewers.push(session.viewerId);
    workspaceDay.newViewers.push(session.viewerId);
    workspaceDay.viewedVideos.push(session.videoId);
    video.newViewers.push(session.viewerId);
  }
}

function entry<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

function emptyTotals(): Totals {
  return { views: 0, watchTimeSeconds: 0, engagement: 0, completions: 0, conversions: 0 };
}

function addTotals(into: Totals, add: Totals): void {
  into.views += add.views;
  into.watchTimeSeconds += add.watchTimeSeconds;
  into.engagement += add.engagement;
  into.completions += add.completions;
  into.conversions += add.conversions;
}

function addSlices(into: number[], add: readonly number[]): void {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] as number) + (add[i] ?? 0);
}

function zeros(): number[] {
  return new Array<number>(SLICES).fill(0);
}

function latest(dates: readonly Date[]): Date {
  return new Date(Math.max(...dates.map((date) => date.getTime())));
}

function watchedShare(state: SessionState): number {
  return Math.min(1, totalLength(state.watched) / state.durationSeconds);
}
