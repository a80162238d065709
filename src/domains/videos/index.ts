import { createFolder } from './operations/create-folder.ts';
import { createVideoUpload } from './operations/create-video-upload.ts';
import { deleteFolder } from './operations/delete-folder.ts';
import { getFolder } from './operations/get-folder.ts';
import { getVideo } from './operations/get-video.ts';
import { importVideo } from './operations/import-video.ts';
import { listFolders } from './operations/list-folders.ts';
import { listVideos } from './operations/list-videos.ts';
import { retryVideo } from './operations/retry-video.ts';
import { updateFolder } from './operations/update-folder.ts';
import { updateVideo } from './operations/update-video.ts';

export const videoOperations = [
  listVideos,
  getVideo,
  updateVideo,
  importVideo,
  createVideoUpload,
  retryVideo,
  listFolders,
  getFolder,
  createFolder,
  updateFolder,
  deleteFolder,
];
