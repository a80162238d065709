import { createVideoUpload } from './operations/create-video-upload.ts';
import { getVideo } from './operations/get-video.ts';
import { importVideo } from './operations/import-video.ts';
import { listVideos } from './operations/list-videos.ts';
import { updateVideo } from './operations/update-video.ts';

export const videoOperations = [listVideos, getVideo, updateVideo, importVideo, createVideoUpload];
