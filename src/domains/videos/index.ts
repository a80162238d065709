/**
 * The front door of the videos area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
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
export { emitVideoCreated, emitVideoUpdated } from './video-change-events.ts';
export { VIDEO_FILE_REMOVAL_ATTEMPTS, VIDEO_FILE_REMOVAL_JOB } from './video-deletion.queries.ts';
export { oldestVideosAmong, videosByViews } from './video-order.queries.ts';
export { unarchivedVideosMatching, videoListingByKey } from './video-search.queries.ts';
export { videoTitles } from './video-titles.queries.ts';
export { videoUsage } from './video-usage.queries.ts';
export { addViewCounts } from './view-counts.queries.ts';
export { videoInWorkspace } from './workspace-video.queries.ts';
export { assertVideoInWorkspace, videosTitled, videosWithIds, workspaceVideos } from './workspace-videos.queries.ts';

// Then the files that reach other areas.
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
export { videoLengthsAndZones } from './video-lengths.queries.ts';
export { getVideoDetail, listVideos, lockVideo, touchVideo, videoDuration } from './videos.queries.ts';
export { VideoId } from './videos.schemas.ts';
