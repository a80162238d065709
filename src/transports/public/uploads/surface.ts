/** The uploads surface: the signed PUT target of create_video_upload. */
import type { PublicSurface } from '../surface.ts';
import { registerUploadTarget } from './upload-target.ts';

export const uploadsSurface: PublicSurface = {
  name: 'uploads',
  register: (app, deps) => registerUploadTarget(app, { ...deps, store: deps.mediaStore }),
};
