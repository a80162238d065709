/**
 * The front door of the viewing area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { countCapturedLead } from './captured-lead-counts.queries.ts';
export { CollectBatch, type ViewingEvent } from './collect-batch.ts';
export { conversionsOf } from './conversions.ts';
export { videoDayRows, workspaceDayRows, workspaceRevenueDays, workspaceVideoDays } from './day-rollups.queries.ts';
export { lifetimeStatsOfVideos, videoHeatmap, workspaceLifetimeTotals } from './lifetime-rollups.queries.ts';
export { ViewerIdField, ViewingTokenField } from './page-view-fields.ts';
export { pruneViewingBatches } from './raw-retention.queries.ts';
export { applyBatch, type RollupDelta, type SessionState } from './session-change.ts';
export { videoLifetimeStats } from './video-lifetime-stats.queries.ts';
export { deleteVideoViewing, forgetViewers, type ViewerReplacement } from './viewing-removal.queries.ts';
export { viewingSessionsOfVideos } from './video-sessions.queries.ts';
export { viewersOfVideo } from './video-viewers.queries.ts';
export { addViewer, countViewers, emptySketch, mergeSketches } from './viewer-sketch.ts';
export { createPageTokens, createViewingTokens, type ViewingTokens } from './viewing-token.ts';
export { slicePlays, SLICES, totalLength } from './watched-ranges.ts';

// Then the files that reach other areas.
export { createBatchCollector } from './batch-collector.ts';
export { createBatchStore, type IncomingBatch } from './batch-intake.queries.ts';
export { browserCtaClicks, browserJourney, browserViews, recentViewsOfViewer, viewAtEdge } from './browser-viewing.queries.ts';
export { FOLD_BATCH_LIMIT, foldAll, foldViewing } from './viewing-fold.ts';
export { countLedgerEntry, countNewLead } from './workspace-day-counts.queries.ts';
export { rebuildWorkspaceDays, rebuildWorkspaceLedgerDays } from './workspace-day-rebuild.ts';
