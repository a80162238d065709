/** The analytics area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { listChanges } from './digests/operations/list-changes.ts';
import { compareVideos } from './reports/operations/compare-videos.ts';
import { getAnalyticsDaily } from './reports/operations/get-analytics-daily.ts';
import { getAnalyticsSummary } from './reports/operations/get-analytics-summary.ts';
import { getVideoAnalytics } from './reports/operations/get-video-analytics.ts';
import { getVideoKeyMoments } from './reports/operations/get-video-key-moments.ts';
import { getVideoRetention } from './reports/operations/get-video-retention.ts';

export const analyticsOperations = [
  compareVideos,
  getVideoKeyMoments,
  getVideoAnalytics,
  getVideoRetention,
  listChanges,
  getAnalyticsSummary,
  getAnalyticsDaily,
];
