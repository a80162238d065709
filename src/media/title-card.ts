/**
 * Draws a title card: blocks of text in the pixel font (pixel-font.ts), each wrapped at spaces to fit
 * the width, stacked and centred on a plain background, as a binary PPM picture, which ffmpeg reads
 * like any image. Text the font cannot draw, or that cannot fit, is refused rather than left out.
 */
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from './pixel-font.ts';

export type Rgb = readonly [red: number, green: number, blue: number];

export interface TextBlock {
  text: string;
  /** Picture pixels per font pixel. */
  scale: number;
  color: Rgb;
}

export interface TitleCard {
  width: number;
  height: number;
  background: Rgb;
  blocks: readonly TextBlock[];
}

/** Left clear at each side, as a share of the width. */
const SIDE_MARGIN_SHARE = 0.05;
/** Between the lines of one block, in font pixels: half a capital's height reads as one paragraph. */
const LINE_GAP = 4;
const BLOCK_GAP_PIXELS = 24;
/** A glyph and the blank column after it. */
const ADVANCE = GLYPH_WIDTH + 1;

export function renderTitleCard(card: TitleCard): Buffer {
  const blocks = card.blocks.map((block) => ({ ...block, lines: wrapWords(block.text, charactersPerLine(card.width, block.scale)) }));
  const blockHeight = (block: (typeof blocks)[number]) =>
    block.lines.length * GLYPH_HEIGHT * block.scale + (block.lines.length - 1) * LINE_GAP * block.scale;
  const total = blocks.reduce((sum, block) => sum + blockHeight(block), 0) + (blocks.length - 1) * BLOCK_GAP_PIXELS;
  if (total > card.height) throw new Error(`The title card's text is ${total} pixels tall, more than the ${card.height} there are`);

  const header = Buffer.from(`P6\n${card.width} ${card.height}\n255\n`, 'ascii');
  const pixels = Buffer.alloc(card.width * card.height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set(card.background, i);
  let top = Math.floor((card.height - total) / 2);
  for (const block of blocks) {
    for (const line of block.lines) {
      const lineWidth = line.length * ADVANCE * block.scale - block.scale;
      drawLine(pixels, card.width, line, Math.floor((card.width - lineWidth) / 2), top, block);
      top += (GLYPH_HEIGHT + LINE_GAP) * block.scale;
    }
    top += BLOCK_GAP_PIXELS - LINE_GAP * block.scale;
  }
  return Buffer.concat([header, pixels]);
}

function charactersPerLine(width: number, scale: number): number {
  // The last glyph of a line needs no blank column after it.
  return Math.floor((width - 2 * Math.round(width * SIDE_MARGIN_SHARE) + scale) / (ADVANCE * scale));
}

/** Greedy wrapping at spaces; a word longer than a line cannot be drawn and is refused. */
export function wrapWords(text: string, maxCharacters: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (word.length > maxCharacters) throw new Error(`"${word}" is longer than the ${maxCharacters} characters a title card line holds`);
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= maxCharacters) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function drawLine(pixels: Buffer, width: number, line: string, left: number, top: number, block: TextBlock): void {
  for (const [index, character] of [...line].entries()) {
    const rows = glyphRows(character);
    if (!rows) throw new Error(`The title card's font has no "${character}" (in "${line}")`);
    for (const [y, row] of rows.entries()) {
      for (let x = 0; x < GLYPH_WIDTH; x++) {
        if (row[x] !== '#') continue;
        fillSquare(pixels, width, left + (index * ADVANCE + x) * block.scale, top + y * block.scale, block);
      }
    }
  }
}

function fillSquare(pixels: Buffer, width: number, left: number, top: number, block: TextBlock): void {
  for (let y = top; y < top + block.scale; y++) {
    for (let x = left; x < left + block.scale; x++) pixels.set(block.color, (y * width + x) * 3);
  }
}
