/**
 * How compare_videos ranks fairly. Each rate (engagement, completion, conversion) is first a Bayesian
 * average: the video's own views plus PRIOR_VIEWS imaginary views at the workspace average. That
 * alone cannot stop a 3-view perfect video from beating a 200-view good one when the good one *is*
 * most of the workspace's average, so the rank uses a cautious value: the Bayesian average minus
 * CAUTION standard errors (about the 2nd percentile of the rate's posterior), which is low for few
 * views and close to the average itself for many. Each cautious rate is divided by the workspace
 * average, and the score is their weighted mean × 100. Pure.
 */
import { percent, round, share } from '../../../core/values/reported-numbers.ts';
import { conversionsOf } from '../../viewing/index.ts';

/** The workspace average counts as this many views of evidence in every video's adjusted rates. */
export const PRIOR_VIEWS = 50;
/** How many standard errors below its Bayesian average a rate is scored at. */
export const CAUTION = 2;

export const SCORE_WEIGHTS = { average_engagement: 0.4, completion_rate: 0.3, conversion_rate: 0.3 } as const;
export type RateName = keyof typeof SCORE_WEIGHTS;
export const RATE_NAMES = Object.keys(SCORE_WEIGHTS) as RateName[];

export interface Totals {
  views: number;
  engagement_sum: number;
  completions: number;
  /** Views that clicked the call to action. */
  conversions: number;
  /** Leads the video's form captured: conversions too (viewing/conversions.ts). */
  leads: number;
}

export type Rates = Record<RateName, number>;

function successes(totals: Totals): Rates {
  return { average_engagement: totals.engagement_sum, completion_rate: totals.completions, conversion_rate: conversionsOf(totals) };
}

export function ratesOf(totals: Totals): Rates {
  const counts = successes(totals);
  const per = (n: number) => (totals.views > 0 ? Math.min(1, n / totals.views) : 0);
  return {
    average_engagement: per(counts.average_engagement),
    completion_rate: per(counts.completion_rate),
    conversion_rate: per(counts.conversion_rate),
  };
}

export interface FairScore {
  /** How much of the adjusted rates is the video's own evidence: views / (views + PRIOR_VIEWS). */
  evidenceWeight: number;
  /** Bayesian averages: (own successes + PRIOR_VIEWS × workspace rate) / (views + PRIOR_VIEWS). */
  adjusted: Rates;
  /** adjusted − CAUTION × its standard error, at least 0. */
  cautious: Rates;
  /** cautious / workspace average; null when the workspace average is 0 (the rate cannot tell videos apart). */
  index: Record<RateName, number | null>;
  score: number;
}

export function fairScore(video: Totals, workspace: Rates): FairScore {
  const counts = successes(video);
  const evidence = video.views + PRIOR_VIEWS;
  const [adjusted, cautious] = [{} as Rates, {} as Rates];
  const index = {} as Record<RateName, number | null>;
  let [weighted, weights] = [0, 0];
  for (const name of RATE_NAMES) {
    const mean = Math.min(1, (Math.min(counts[name], video.views) + PRIOR_VIEWS * workspace[name]) / evidence);
    adjusted[name] = mean;
    cautious[name] = Math.max(0, mean - CAUTION * Math.sqrt((mean * (1 - mean)) / (evidence + 1)));
    index[name] = workspace[name] > 0 ? cautious[name] / workspace[name] : null;
    if (index[name] !== null) {
      weighted += SCORE_WEIGHTS[name] * (index[name] as number);
      weights += SCORE_WEIGHTS[name];
    }
  }
  const score = weights > 0 ? percent((weighted / weights) * 100) : 0;
  return { evidenceWeight: video.views / evidence, adjusted, cautious, index, score };
}

const LABELS: Record<RateName, string> = {
  average_engagement: 'engagement',
  completion_rate: 'completion',
  conversion_rate: 'conversion',
};

const percentText = (value: number) => `${Math.round(value * 100)}%`;

/** A few plain sentences saying why a video got its rank. */
export function explainRank(rank: number, count: number, views: number, own: Rates, fair: FairScore, average: Rates): string {
  const parts = [`Rank ${rank} of ${count} with a score of ${fair.score}.`];
  const weight = percentText(fair.evidenceWeight);
  if (views === 0) parts.push('No views yet: it is scored as a workspace-average video we know nothing about, cautiously.');
  else if (views < PRIOR_VIEWS)
    parts.push(
      `Only ${views} ${views === 1 ? 'view' : 'views'}: its own rates carry ${weight} of the weight, the workspace average the rest, ` +
        'and so few views leave a wide margin of doubt, which the score takes off.',
    );
  else parts.push(`${views} views: its own rates carry ${weight} of the weight.`);
  const known = RATE_NAMES.filter((name) => fair.index[name] !== null);
  if (known.length === 0) parts.push('No views in the workspace yet, so nothing tells the videos apart.');
  else {
    const rates = known.map(
      (name) =>
        `${LABELS[name]} ${percentText(own[name])} (cautiously ${percentText(fair.cautious[name])}, workspace ${percentText(average[name])})`,
    );
    const sentence = rates.join(', ');
    parts.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
  }
  return parts.join(' ');
}

export interface Candidate {
  video_id: string;
  title: string;
  totals: Totals;
}

interface RateReport {
  value: number;
  adjusted: number;
  cautious: number;
  workspace_average: number;
  index: number | null;
}

/** The candidates, best first (ties: more views, then the order given), as compare_videos reports them. */
export function rankVideos(candidates: readonly Candidate[], average: Rates) {
  const scored = candidates.map((candidate, order) => ({
    ...candidate,
    order,
    own: ratesOf(candidate.totals),
    fair: fairScore(candidate.totals, average),
  }));
  scored.sort((a, b) => b.fair.score - a.fair.score || b.totals.views - a.totals.views || a.order - b.order);
  return scored.map((entry, i) => {
    const report = (name: RateName): RateReport => ({
      value: share(entry.own[name]),
      adjusted: share(entry.fair.adjusted[name]),
      cautious: share(entry.fair.cautious[name]),
      workspace_average: share(average[name]),
      // Against the workspace average, so above 1 for a better video: a ratio, not a share.
      index: entry.fair.index[name] === null ? null : round(entry.fair.index[name] as number, 3),
    });
    return {
      rank: i + 1,
      video_id: entry.video_id,
      title: entry.title,
      views: entry.totals.views,
      score: entry.fair.score,
      evidence_weight: share(entry.fair.evidenceWeight),
      metrics: {
        average_engagement: report('average_engagement'),
        completion_rate: report('completion_rate'),
        conversion_rate: report('conversion_rate'),
      },
      why: explainRank(i + 1, scored.length, entry.totals.views, entry.own, entry.fair, average),
    };
  });
}
