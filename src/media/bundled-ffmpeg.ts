/**
 * The static ffmpeg that the @ffmpeg-installer packages carry inside the npm registry (a dependency),
 * so posters and subtitles work after `npm install && npm start` on a machine without ffmpeg. The
 * platform's binary comes as an optional package (@ffmpeg-installer/linux-x64, …): on a platform
 * without one, or an install that left optional packages out, there is none.
 */
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

export type BundledFfmpeg = { path: string } | { path: null; reason: string };

/** The binary's path as the package reports it; throws when the platform has none. */
function installedPath(): string {
  return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export function findBundledFfmpeg(locate: () => string = installedPath): BundledFfmpeg {
  let path: string;
  try {
    path = locate();
  } catch (error) {
    // The package throws plain strings ("Unsupported platform/architecture: …").
    return { path: null, reason: `no ffmpeg is bundled for this machine (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    // The registry's tarball carries the execute bit, and the package's install script
    // (`chmod u+x ffmpeg`) sets it again; an install that lost both (a copy without modes) lands here.
    return { path: null, reason: `the bundled ffmpeg at ${path} is not executable: run \`chmod u+x ${path}\`` };
  }
}
