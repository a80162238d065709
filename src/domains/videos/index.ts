/**
 * The front door of the videos area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { ensureFolder } from './folders/folder-seed.queries.ts';
export { archiveSeededVideos, insertSeedVideo, seedLeadForm } from './library-seed.queries.ts';
export { videosWithAdaptiveStream } from './renditions/adaptive-streams.queries.ts';
export {
  failRendition,
  finishRendition,
  havingPlayableRendition,
  type PlannedRendition,
  planRenditions,
  playableRenditions,
  queueRenditionJobs,
  startRendition,
  VIDEO_RENDITION_ATTEMPTS,
  VIDEO_RENDITION_JOB,
} from './renditions/renditions.queries.ts';
export { reportedVideo } from './reported-video.queries.ts';
export { findServableVideo, findServableVideos, isServable, servableVideos } from './servable-videos.queries.ts';
export { endProcessing, recordSourceFileSize } from './uploads/processing-writes.queries.ts';
export {
  claimUpload,
  finishUpload,
  isStillProcessing,
  markVideoFailed,
  reopenUpload,
  VIDEO_IMPORT_ATTEMPTS,
  VIDEO_IMPORT_JOB,
  VIDEO_PROCESSING_ATTEMPTS,
  VIDEO_PROCESSING_JOB,
} from './uploads/uploads.queries.ts';
export { emitVideoCreated, emitVideoUpdated } from './video-change-events.ts';
export { oldestVideosAmong, videosByViews } from './video-order.queries.ts';
export { unarchivedVideosMatching, videoListingByKey } from './video-search.queries.ts';
export { videoUsage } from './video-usage.queries.ts';
export { getVideoDetail, listVideos, lockVideo, touchVideo, videoDuration } from './videos.queries.ts';
export { VideoId } from './videos.schemas.ts';
export { videoInWorkspace } from './workspace-video.queries.ts';
export { assertVideoInWorkspace, videosTitled, videosWithIds, workspaceVideos } from './workspace-videos.queries.ts';
