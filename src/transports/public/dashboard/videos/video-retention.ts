/**
 * The retention curve (get_video_retention): the share of views still watching at each point of the
 * video, with the key moments (get_video_key_moments: replayed parts, call-to-action clicks) and the
 * drop-off points marked on it and listed beside it with their times. Below the views key moments need,
 * the retention report's own drop-offs and rewatch peaks are marked instead, so a young video still
 * shows where people leave.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { type ChartMarker, lineChart } from '../kit/charts.ts';
import { formatClock, formatCount, formatShare } from '../kit/formats.ts';
import type { KeyMomentsAnswer, Part, RetentionAnswer } from './video-answers.ts';

interface Mark {
  kind: 'moment' | 'drop';
  start: number;
  end: number;
  /** What kind of moment, in a word or two. */
  name: string;
  reason: string;
  words: string | null;
}

const MOMENT_NAMES: Record<KeyMomentsAnswer['moments'][number]['kind'], string> = {
  rewatch_peak: 'Replayed',
  drop_off: 'Drop-off',
  cta_clicks: 'Call-to-action clicks',
};

function marksOf(retention: RetentionAnswer, moments: KeyMomentsAnswer | undefined): Mark[] {
  if (moments && moments.moments.length > 0) {
    // In the order they come in the video, as the curve reads; the operation ranks them by weight.
    return moments.moments
      .map(
        (moment): Mark => ({
          kind: moment.kind === 'drop_off' ? 'drop' : 'moment',
          start: moment.start_seconds,
          end: moment.end_seconds,
          name: MOMENT_NAMES[moment.kind],
          reason: moment.reason,
          words: moment.transcript,
        }),
      )
      .sort((a, b) => a.start - b.start);
  }
  return [
    ...retention.drop_offs.map(
      (drop): Mark => ({
        kind: 'drop',
        start: drop.start_seconds,
        end: drop.end_seconds,
        name: 'Drop-off',
        reason: `${formatShare(drop.fall)} of views leave here (from ${formatShare(drop.from_retention)} to ${formatShare(drop.to_retention)} still watching).`,
        words: null,
      }),
    ),
    ...retention.rewatch_peaks.map(
      (peak): Mark => ({
        kind: 'moment',
        start: peak.start_seconds,
        end: peak.end_seconds,
        name: 'Replayed',
        reason: `${formatShare(peak.replay_share)} of views played this again (${peak.rewatch.toFixed(1)} plays per view, against ${peak.median_rewatch.toFixed(1)} for the typical part).`,
        words: null,
      }),
    ),
  ].sort((a, b) => a.start - b.start);
}

/** The slice a moment starts in: where its marker stands on the curve. */
function sliceAt(retention: RetentionAnswer, seconds: number): number {
  const index = retention.curve.findIndex((point) => seconds < point.end_seconds);
  return index === -1 ? retention.curve.length - 1 : index;
}

function markList(marks: Mark[]): string {
  if (marks.length === 0) return '<p class="empty">No part stands out yet: viewers leave and replay it evenly.</p>';
  return (
    '<ol class="video-moments">' +
    marks
      .map(
        (mark) =>
          `<li class="${mark.kind}"><p class="video-moment-head"><span class="swatch ${mark.kind}" aria-hidden="true"></span>` +
          `<span class="video-moment-time" data-seek="${Math.floor(mark.start)}">${formatClock(mark.start)}–${formatClock(mark.end)}</span> <strong>${escapeHtml(mark.name)}</strong></p>` +
          `<p>${escapeHtml(mark.reason)}</p>${mark.words ? `<blockquote>“${escapeHtml(mark.words)}”</blockquote>` : ''}</li>`,
      )
      .join('') +
    '</ol>'
  );
}

export function retentionPart(retentionPart: Part<RetentionAnswer>, momentsPart: Part<KeyMomentsAnswer> | undefined): string {
  if (!retentionPart.ok) return `<p class="empty">${escapeHtml(retentionPart.message)}</p>`;
  const retention = retentionPart.body;
  if (retention.curve.length === 0) {
    return `<p class="empty">${escapeHtml(retention.note ?? 'No views yet.')}</p>`;
  }
  const moments = momentsPart?.ok ? momentsPart.body : undefined;
  const marks = marksOf(retention, moments);
  const markers: ChartMarker[] = marks.map((mark) => ({
    at: sliceAt(retention, mark.start),
    label: `${mark.name} at ${formatClock(mark.start)}: ${mark.reason}`,
    kind: mark.kind,
  }));
  const end = retention.curve.at(-1) as RetentionAnswer['curve'][number];
  const biggestDrop = retention.drop_offs[0];
  const description =
    `Of ${formatCount(retention.views)} views, ${formatShare(end.retention)} are still watching at the end; ` +
    `a view watches ${Math.round(retention.average_percentage_viewed)}% of the video on average.` +
    (biggestDrop
      ? ` The biggest drop-off is at ${formatClock(biggestDrop.start_seconds)}, where ${formatShare(biggestDrop.fall)} of views leave.`
      : '');
  const chart = lineChart({
    id: 'retention',
    title: 'Share of views still watching',
    description,
    series: [
      {
        name: 'Still watching',
        points: retention.curve.map((point) => ({ label: formatClock(point.start_seconds), value: point.retention })),
      },
    ],
    format: formatShare,
    minimumTop: 1,
    markers,
    xHeading: 'Position',
  });
  const momentsNote = moments && moments.moments.length === 0 && moments.note ? `<p class="hint">${escapeHtml(moments.note)}</p>` : '';
  return (
    `<p class="video-summary">${escapeHtml(description)}</p>` +
    `<div class="video-retention">${chart}<div class="video-retention-side"><h3>Moments on the curve</h3>${markList(marks)}${momentsNote}</div></div>`
  );
}
