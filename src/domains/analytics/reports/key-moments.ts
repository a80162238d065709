/**
 * Key moments of a video, ranked: rewatch peaks, steep drop-offs and call-to-action clicks found in
 * its heatmap, each scored as the share of views it concerns (so the kinds rank against each other)
 * and explained in a sentence with its numbers; with a transcript, the words spoken then. Pure.
 */
import { seconds, share } from '../../../core/values/reported-numbers.ts';
import type { TranscriptSegmentJson } from '../../../db/tables/index.ts';
import { findCtaWindows, findDropOffs, findRewatchPeaks, type Heatmap } from './heatmap-reading.ts';

/** Below this many views one viewer moves a slice by 5% or more: no moments are reported. */
export const MIN_VIEWS_FOR_MOMENTS = 20;
/** A drop-off is a key moment when it loses at least this share of views. */
export const KEY_DROP_SHARE = 0.1;
/** Call-to-action clicks form a key moment from this many clicks in a stretch. */
export const KEY_CTA_CLICKS = 2;
export const MAX_MOMENTS = 10;
/** For a drop-off, the words spoken this long before it count too: they are what viewers left on. */
const DROP_LEAD_IN_SECONDS = 5;
const MAX_TRANSCRIPT_CHARS = 600;

export const MOMENT_KINDS = ['rewatch_peak', 'drop_off', 'cta_clicks'] as const;

export interface KeyMoment {
  rank: number;
  kind: (typeof MOMENT_KINDS)[number];
  start_seconds: number;
  end_seconds: number;
  score: number;
  views_involved: number;
  reason: string;
  transcript: string | null;
}

export const RULES =
  `Moments come from the 100-slice heatmap of every view so far, once the video has ${MIN_VIEWS_FOR_MOMENTS} views. ` +
  'rewatch_peak: slices that at least 10% of views played again, and at least twice as often as the median slice is replayed. ' +
  `drop_off: a stretch where each slice boundary loses at least 2% of views and together at least ${KEY_DROP_SHARE * 100}%. ` +
  `cta_clicks: a stretch with at least ${KEY_CTA_CLICKS} call-to-action clicks. The first slice is left out of peaks and ` +
  'drop-offs (openings always lose and replay viewers). score is the share of views the moment concerns, 0–1.';

export function clock(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

function spokenBetween(segments: readonly TranscriptSegmentJson[] | null, start: number, end: number): string | null {
  if (!segments) return null;
  const text = segments
    .filter((segment) => segment.end_seconds > start && segment.start_seconds < end)
    .map((segment) => segment.text.trim())
    .join(' ');
  if (!text) return null;
  return text.length > MAX_TRANSCRIPT_CHARS ? `${text.slice(0, MAX_TRANSCRIPT_CHARS - 1)}…` : text;
}

export function findKeyMoments(heatmap: Heatmap, segments: readonly TranscriptSegmentJson[] | null): KeyMoment[] {
  if (heatmap.views < MIN_VIEWS_FOR_MOMENTS) return [];
  const views = heatmap.views;
  const found: Omit<KeyMoment, 'rank' | 'transcript' | 'views_involved'>[] = [];
  const span = (start: number, end: number) => `${clock(start)}–${clock(end)}`;
  for (const peak of findRewatchPeaks(heatmap)) {
    found.push({
      kind: 'rewatch_peak',
      start_seconds: seconds(peak.startSeconds),
      end_seconds: seconds(peak.endSeconds),
      score: peak.replayShare,
      reason:
        `${percent(peak.replayShare)} of views played ${span(peak.startSeconds, peak.endSeconds)} again: ` +
        `${peak.rewatch.toFixed(2)} plays per view there, against ${peak.medianRewatch.toFixed(2)} for the median part of the video.`,
    });
  }
  for (const drop of findDropOffs(heatmap).filter((d) => d.fall >= KEY_DROP_SHARE - 1e-9)) {
    found.push({
      kind: 'drop_off',
      start_seconds: seconds(drop.startSeconds),
      end_seconds: seconds(drop.endSeconds),
      score: drop.fall,
      reason:
        `${percent(drop.fall)} of views stopped watching between ${clock(drop.startSeconds)} and ${clock(drop.endSeconds)}: ` +
        `the share still watching falls from ${percent(drop.from)} to ${percent(drop.to)}.`,
    });
  }
  for (const cta of findCtaWindows(heatmap).filter((w) => w.clicks >= KEY_CTA_CLICKS)) {
    found.push({
      kind: 'cta_clicks',
      start_seconds: seconds(cta.startSeconds),
      end_seconds: seconds(cta.endSeconds),
      score: Math.min(1, cta.clicks / views),
      reason: `${cta.clicks} call-to-action clicks during ${span(cta.startSeconds, cta.endSeconds)}, ${Math.round((cta.clicks / views) * 100)} per 100 views.`,
    });
  }
  return found
    .sort((a, b) => b.score - a.score || a.start_seconds - b.start_seconds)
    .slice(0, MAX_MOMENTS)
    .map((moment, i) => {
      const from = moment.kind === 'drop_off' ? Math.max(0, moment.start_seconds - DROP_LEAD_IN_SECONDS) : moment.start_seconds;
      return {
        rank: i + 1,
        ...moment,
        score: share(moment.score),
        views_involved: Math.round(moment.score * views),
        transcript: spokenBetween(segments, from, moment.end_seconds),
      };
    });
}
