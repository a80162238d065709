/** The videos area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { createFolder } from './folders/operations/create-folder.ts';
import { deleteFolder } from './folders/operations/delete-folder.ts';
import { getFolder } from './folders/operations/get-folder.ts';
import { listFolders } from './folders/operations/list-folders.ts';
import { updateFolder } from './folders/operations/update-folder.ts';
import { deleteVideo } from './operations/delete-video.ts';
import { getVideo } from './operations/get-video.ts';
import { listVideos } from './operations/list-videos.ts';
import { retryVideo } from './operations/retry-video.ts';
import { updateVideo } from './operations/update-video.ts';
import { createVideoUpload } from './uploads/operations/create-video-upload.ts';
import { importVideo } from './uploads/operations/import-video.ts';

export const videoOperations = [
  listVideos,
  getVideo,
  updateVideo,
  importVideo,
  createVideoUpload,
  retryVideo,
  deleteVideo,
  listFolders,
  getFolder,
  createFolder,
  updateFolder,
  deleteFolder,
];
