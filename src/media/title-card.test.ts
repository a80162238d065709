/**
 * Title cards drawn in the pixel font: a binary PPM of the asked size, the background everywhere but
 * the text, text centred and wrapped at spaces; characters the font lacks, words longer than a line
 * and text taller than the card are refused instead of drawn wrong.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from './pixel-font.ts';
import { renderTitleCard, wrapWords } from './title-card.ts';

const BLUE = [10, 20, 30] as const;
const WHITE = [255, 255, 255] as const;

function pixelsOf(ppm: Buffer, width: number, height: number): Buffer {
  const header = `P6\n${width} ${height}\n255\n`;
  assert.equal(ppm.subarray(0, header.length).toString('ascii'), header);
  assert.equal(ppm.length, header.length + width * height * 3);
  return ppm.subarray(header.length);
}

test('one glyph, scaled: its lit pixels in the text colour, centred; the rest is the background', () => {
  const [width, height, scale] = [40, 30, 2];
  const pixels = pixelsOf(
    renderTitleCard({ width, height, background: BLUE, blocks: [{ text: 'i', scale, color: WHITE }] }),
    width,
    height,
  );
  const rows = glyphRows('I') as readonly string[];
  const left = Math.floor((width - GLYPH_WIDTH * scale) / 2);
  const top = Math.floor((height - GLYPH_HEIGHT * scale) / 2);
  let lit = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [gx, gy] = [Math.floor((x - left) / scale), Math.floor((y - top) / scale)];
      const inGlyph = gx >= 0 && gx < GLYPH_WIDTH && gy >= 0 && gy < GLYPH_HEIGHT && rows[gy]?.[gx] === '#';
      const at = (y * width + x) * 3;
      assert.deepEqual([...pixels.subarray(at, at + 3)], inGlyph ? [...WHITE] : [...BLUE], `pixel ${x},${y}`);
      if (inGlyph) lit++;
    }
  }
  assert.equal(lit, (rows.join('').match(/#/g)?.length ?? 0) * scale * scale, 'every lit font pixel is a scale × scale square');
});

test('text wraps at spaces within the line; a word longer than a line is refused', () => {
  assert.deepEqual(wrapWords('Security and compliance for buyers', 24), ['Security and compliance', 'for buyers']);
  assert.deepEqual(wrapWords('  two   spaces ', 24), ['two spaces']);
  assert.throws(() => wrapWords('Supercalifragilistic', 10), /"Supercalifragilistic" is longer than the 10 characters/);
});

test('a character the font lacks, or text taller than the card, is refused', () => {
  const card =
    (text: string, height = 100) =>
    () =>
      renderTitleCard({ width: 200, height, background: BLUE, blocks: [{ text, scale: 2, color: WHITE }] });
  assert.throws(card('Café'), /font has no "é" \(in "Café"\)/);
  assert.throws(card('one two three four five six seven eight nine ten', 40), /pixels tall, more than the 40 there are/);
  assert.doesNotThrow(card('Q&A: what’s new? (2027)'));
});
