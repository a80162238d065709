/**
 * The demo videos' clips, made by ffmpeg from their titles alone: a silent title card with the title
 * and its folder (drawn by title-card.ts, so no font is needed), then a moving test pattern with a
 * beeping tone, as an H.264/AAC MP4 that browsers play, its captions carried as a text track.
 * Cheap on purpose, since seeding makes about fifty of them in tests and on a newcomer's laptop: the
 * pattern is the same in every clip, so it is encoded once per seed, and each clip encodes only its
 * title card and copies as much of the pattern as it needs after it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runFfmpeg } from '../media/ffmpeg.ts';
import { type Rgb, renderTitleCard } from '../media/title-card.ts';
import type { TranscriptSegment } from '../media/webvtt.ts';
import { writeWebVtt } from '../media/webvtt-writer.ts';
import type { DemoVideo } from './demo-library.ts';

export const DEMO_CLIP_WIDTH = 640;
export const DEMO_CLIP_HEIGHT = 360;
/** Enough for a test pattern to move, at a tenth of the work of 25 fps. */
const FRAME_RATE = 10;
/** Long enough that the poster, taken up to 5 s in (video-extras.ts), shows the title. */
export const TITLE_CARD_SECONDS = 6;
/** The longest run takes a second or two; this allows for a laptop busy with other things. */
const RUN_TIMEOUT_MS = 180_000;

// The card and the pattern are joined without re-encoding, which needs them encoded alike. One
// thread each: x264's output differs with its thread count, and clips are made two at a time instead.
const VIDEO_ENCODING = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-g', String(2 * FRAME_RATE), '-pix_fmt', 'yuv420p'];
const AUDIO_ENCODING = ['-c:a', 'aac', '-b:a', '48k', '-ac', '1', '-ar', '44100'];
const ONE_THREAD = ['-threads', '1'];

const CARD_COLOURS: Record<DemoVideo['folder'], Rgb> = {
  Onboarding: [29, 53, 87],
  'Product tours': [38, 70, 83],
  'Sales demos': [87, 40, 62],
  Webinars: [51, 44, 94],
  'Customer stories': [33, 77, 58],
  Support: [92, 58, 28],
};
const WHITE: Rgb = [255, 255, 255];
const PALE: Rgb = [190, 205, 220];

export type DemoClipSubject = Pick<DemoVideo, 'title' | 'folder' | 'description'> & { durationSeconds: number };

/** What the clip shows and plays, as captions: the title card's words, then the test pattern's. */
export function demoClipCaptions(subject: DemoClipSubject): TranscriptSegment[] {
  const half = Math.round((TITLE_CARD_SECONDS + subject.durationSeconds) / 2);
  return [
    // What the video is about, as its speaker would open: search then finds it by more than its title.
    { start_seconds: 0, end_seconds: TITLE_CARD_SECONDS, text: subject.description },
    { start_seconds: TITLE_CARD_SECONDS, end_seconds: half, text: 'A test pattern and a tone stand in for the video itself.' },
    {
      start_seconds: half,
      end_seconds: subject.durationSeconds,
      text: 'Cuepoint made this clip when it seeded the demo library. Upload a video of your own to see it here.',
    },
  ];
}

/** The moving test pattern with its tone, `seconds` long, that every clip continues with. */
export async function makeDemoPattern(ffmpegPath: string, { seconds, path }: { seconds: number; path: string }): Promise<void> {
  await run(ffmpegPath, [
    // Drawn at half size and doubled: at full size its RGB-to-YUV conversion was the costliest step.
    ...['-f', 'lavfi', '-i', `testsrc=size=${DEMO_CLIP_WIDTH / 2}x${DEMO_CLIP_HEIGHT / 2}:rate=${FRAME_RATE}:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=2:sample_rate=44100:duration=${seconds}`],
    ...['-filter_complex', `[0:v]scale=${DEMO_CLIP_WIDTH}:${DEMO_CLIP_HEIGHT}:flags=neighbor,setsar=1,format=yuv420p[pattern]`],
    ...['-map', '[pattern]', '-map', '1:a', ...VIDEO_ENCODING, ...AUDIO_ENCODING, ...ONE_THREAD, '-y', path],
  ]);
}

/**
 * Makes the clip in `workDir` (its own: the card and captions are written there too), continuing with
 * the pattern at `patternPath` (at least the clip's length less the card), and answers the MP4's path.
 * Rejects with ffmpeg's reason when it cannot be made.
 */
export async function makeDemoClip(
  ffmpegPath: string,
  subject: DemoClipSubject,
  { workDir, patternPath }: { workDir: string; patternPath: string },
): Promise<string> {
  if (!Number.isInteger(subject.durationSeconds) || subject.durationSeconds <= TITLE_CARD_SECONDS) {
    throw new Error(`A demo clip lasts a whole number of seconds over ${TITLE_CARD_SECONDS}, not ${subject.durationSeconds}`);
  }
  const picture = join(workDir, 'card.ppm');
  const card = join(workDir, 'card.mp4');
  const parts = join(workDir, 'parts.txt');
  const captions = join(workDir, 'captions.vtt');
  const clip = join(workDir, 'clip.mp4');
  await writeFile(
    picture,
    renderTitleCard({
      width: DEMO_CLIP_WIDTH,
      height: DEMO_CLIP_HEIGHT,
      background: CARD_COLOURS[subject.folder],
      blocks: [
        { text: subject.folder, scale: 2, color: PALE },
        { text: subject.title, scale: 4, color: WHITE },
      ],
    }),
  );
  await run(ffmpegPath, [
    ...['-framerate', String(FRAME_RATE), '-i', picture],
    ...['-f', 'lavfi', '-t', String(TITLE_CARD_SECONDS), '-i', 'anullsrc=channel_layout=mono:sample_rate=44100'],
    // The picture is read once and its frame repeated: looping the input would read and decode it every frame.
    ...['-filter_complex', `[0:v]setsar=1,format=yuv420p,loop=loop=${TITLE_CARD_SECONDS * FRAME_RATE - 1}:size=1:start=0[card]`],
    ...['-map', '[card]', '-map', '1:a'],
    ...[...VIDEO_ENCODING, ...AUDIO_ENCODING, ...ONE_THREAD, '-y', card],
  ]);
  await writeFile(captions, writeWebVtt(demoClipCaptions(subject)));
  await writeFile(parts, `${concatEntry(card)}\n${concatEntry(patternPath)}\noutpoint ${subject.durationSeconds - TITLE_CARD_SECONDS}\n`);
  await run(ffmpegPath, [
    ...['-f', 'concat', '-safe', '0', '-i', parts, '-i', captions],
    ...['-map', '0:v', '-map', '0:a', '-map', '1:s', '-c', 'copy', '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng'],
    // The index first, so a browser can start playing and seeking before the whole file has arrived.
    ...['-movflags', '+faststart', '-y', clip],
  ]);
  return clip;
}

/** A line of ffmpeg's concat list: the path quoted, so spaces or quotes in a temporary directory's name are kept. */
function concatEntry(path: string): string {
  return `file '${path.replace(/'/g, "'\\''")}'`;
}

async function run(ffmpegPath: string, args: string[]): Promise<void> {
  const ffmpeg = runFfmpeg(ffmpegPath, args, { timeoutMs: RUN_TIMEOUT_MS });
  ffmpeg.stdout.resume(); // everything goes to files: nothing is written here
  await ffmpeg.finished;
}
