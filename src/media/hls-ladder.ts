/**
 * The HLS ladder a video gets: H.264/AAC rungs from 240p up to the source's own size, never above
 * it (an upscale costs bytes and shows nothing new). A rung is named by its short side, so a portrait
 * video gets the same ladder turned on its side. Sizes are even (4:2:0 H.264 needs it), rounded down
 * where rounding up would upscale. Bit rates follow the usual published ladders
 * (Apple's HLS authoring specification, Mux's defaults) for 30 fps content; the H.264 level covers
 * the rung up to 60 fps, so the CODECS string a player reads is true for what is made.
 */

export interface RenditionPlan {
  /** e.g. `360p`: the short side of the picture. */
  name: string;
  width: number;
  height: number;
  videoKbps: number;
  /** Null when the source has no sound. */
  audioKbps: number | null;
  /** The H.264 level the encoder is told to keep to (x264 `-level`), e.g. `3.2`. */
  level: string;
  /** RFC 6381 CODECS for the master playlist: Main profile at that level, plus AAC-LC when there is sound. */
  codecs: string;
}

interface Rung {
  shortSide: number;
  videoKbps: number;
  audioKbps: number;
}

const RUNGS: readonly Rung[] = [
  { shortSide: 240, videoKbps: 400, audioKbps: 96 },
  { shortSide: 360, videoKbps: 800, audioKbps: 96 },
  { shortSide: 540, videoKbps: 1800, audioKbps: 128 },
  { shortSide: 720, videoKbps: 3000, audioKbps: 128 },
  { shortSide: 1080, videoKbps: 5500, audioKbps: 128 },
];

// Level 3.2 carries 540p at 60 fps (216,000 macroblocks a second); 4.2 carries 1080p at 60 fps.
const SMALL_LEVEL = { level: '3.2', idc: 32 };
const LARGE_LEVEL = { level: '4.2', idc: 42 };
const MAIN_PROFILE = '4d';
const AAC_LC = 'mp4a.40.2';

/**
 * The rungs for a source of `width` × `height`, lowest first (the first is the one made before the
 * video is ready). A source smaller than the lowest rung gets one rendition at its own size. Sizes are
 * even, as 4:2:0 H.264 requires.
 */
export function planLadder(source: { width: number; height: number; hasAudio: boolean }): RenditionPlan[] {
  const portrait = source.height > source.width;
  const sourceShort = Math.min(source.width, source.height);
  const sourceLong = Math.max(source.width, source.height);
  const fitting = RUNGS.filter((rung) => rung.shortSide <= sourceShort);
  const rungs = fitting.length > 0 ? fitting : [{ ...(RUNGS[0] as Rung), shortSide: Math.max(2, Math.floor(sourceShort / 2) * 2) }];
  return rungs.map((rung) => {
    const short = rung.shortSide;
    const long = even((sourceLong * short) / sourceShort);
    const [width, height] = portrait ? [short, long] : [long, short];
    return renditionPlan({
      name: `${short}p`,
      width,
      height,
      videoKbps: rung.videoKbps,
      audioKbps: source.hasAudio ? rung.audioKbps : null,
    });
  });
}

/** A rung's encoder level and CODECS, from its size and whether it has sound (also for a rung stored earlier). */
export function renditionPlan(rung: Omit<RenditionPlan, 'level' | 'codecs'>): RenditionPlan {
  const { level, idc } = Math.min(rung.width, rung.height) <= 540 ? SMALL_LEVEL : LARGE_LEVEL;
  const video = `avc1.${MAIN_PROFILE}00${idc.toString(16).padStart(2, '0')}`;
  return { ...rung, level, codecs: rung.audioKbps === null ? video : `${video},${AAC_LC}` };
}

/** The nearest even number, at least 2. */
function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}
