import { compareVideos } from './operations/compare-videos.ts';
import { getAnalyticsDaily } from './operations/get-analytics-daily.ts';
import { getAnalyticsSummary } from './operations/get-analytics-summary.ts';
import { getVideoAnalytics } from './operations/get-video-analytics.ts';
import { getVideoKeyMoments } from './operations/get-video-key-moments.ts';
import { getVideoRetention } from './operations/get-video-retention.ts';
import { listChanges } from './operations/list-changes.ts';

export const analyticsOperations = [
  compareVideos,
  getVideoKeyMoments,
  getVideoAnalytics,
  getVideoRetention,
  listChanges,
  getAnalyticsSummary,
  getAnalyticsDaily,
];
