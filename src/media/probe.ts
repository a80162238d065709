/**
 * What a media file is, read with mediainfo.js (MediaInfoLib compiled to WASM: no system package
 * needed). The file is read in chunks from disk, never loaded whole.
 */
import { open } from 'node:fs/promises';

export interface MediaFacts {
  hasVideo: boolean;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  bitrate: number | null;
  mediaType: string;
  format: string | null;
  /** The first subtitle track stored as text (ffmpeg can turn it into a transcript), if any. */
  textSubtitles: SubtitleTrack | null;
}

export interface SubtitleTrack {
  /** The stream's index in the container, as ffmpeg numbers them (`-map 0:<index>`). */
  streamIndex: number | null;
  /** The track's language as tagged (ISO 639), if tagged. */
  language: string | null;
}

// Text formats as MediaInfo names them. Bitmap subtitles (PGS, VobSub, DVB) hold pictures of words,
// and captions carried inside the video stream (EIA-608/708) are not a separate stream ffmpeg can map.
const TEXT_SUBTITLE_FORMATS = new Set(['Timed Text', 'UTF-8', 'ASS', 'SSA', 'WebVTT', 'TTML', 'SubRip', 'mov_text']);

type Track = Record<string, unknown> & { '@type': string };

export async function probeMedia(path: string): Promise<MediaFacts> {
  // Loaded with the first probe, not at start-up.
  const { default: mediaInfoFactory } = await import('mediainfo.js');
  const mediaInfo = await mediaInfoFactory({ format: 'object' });
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const result = await mediaInfo.analyzeData(size, async (chunkSize, offset) => {
      const buffer = Buffer.alloc(chunkSize);
      const { bytesRead } = await file.read(buffer, 0, chunkSize, offset);
      return buffer.subarray(0, bytesRead);
    });
    const tracks = (result.media?.track ?? []) as unknown as Track[];
    const general = tracks.find((t) => t['@type'] === 'General');
    const video = tracks.find((t) => t['@type'] === 'Video');
    const audio = tracks.find((t) => t['@type'] === 'Audio');
    const subtitles = tracks.find((t) => t['@type'] === 'Text' && TEXT_SUBTITLE_FORMATS.has(String(t.Format)));
    const format = text(general?.Format);
    return {
      hasVideo: video !== undefined,
      durationSeconds: number(general?.Duration ?? video?.Duration),
      width: integer(video?.Width),
      height: integer(video?.Height),
      videoCodec: text(video?.Format),
      audioCodec: text(audio?.Format),
      bitrate: integer(general?.OverallBitRate),
      mediaType: text(general?.InternetMediaType) ?? mediaTypeOf(format),
      format,
      textSubtitles: subtitles ? { streamIndex: integer(subtitles.StreamOrder), language: text(subtitles.Language) } : null,
    };
  } finally {
    await file.close();
    mediaInfo.close();
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function number(value: unknown): number | null {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) && value !== null && value !== undefined && value !== '' ? n : null;
}

function integer(value: unknown): number | null {
  const n = number(value);
  return n === null ? null : Math.round(n);
}

const FORMAT_TYPES: Record<string, string> = {
  MPEG_4: 'video/mp4',
  'MPEG-4': 'video/mp4',
  WebM: 'video/webm',
  Matroska: 'video/x-matroska',
  QuickTime: 'video/quicktime',
};

function mediaTypeOf(format: string | null): string {
  // The format name comes from the uploaded file itself: own keys only, never the prototype's.
  return (format && Object.hasOwn(FORMAT_TYPES, format) && FORMAT_TYPES[format]) || 'application/octet-stream';
}

/** The columns of a video row its probed file decides (processing, and the demo's clips, write them alike). */
export function probedVideoColumns(facts: MediaFacts) {
  return {
    duration_seconds: facts.durationSeconds,
    width: facts.width,
    height: facts.height,
    video_codec: facts.videoCodec,
    audio_codec: facts.audioCodec,
    bitrate: facts.bitrate,
    media_type: facts.mediaType,
  };
}
