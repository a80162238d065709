/**
 * docs/decisions.md opens with an index of its entries, one link per `###` heading in order, so a
 * reader finds a decision without scrolling seventy entries. An entry added without its line in the
 * index fails here; the message holds the index as it should read, to paste in.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const path = join(import.meta.dirname, '..', 'docs', 'decisions.md');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(headings: string[]): string[] {
  const seen = new Map<string, number>();
  return headings.map((heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}

test('docs/decisions.md indexes every decision, in order', () => {
  const text = readFileSync(path, 'utf8');
  const headings = [...text.matchAll(/^### (.+)$/gm)].map((match) => match[1] ?? '');
  const anchors = anchorsOf(headings);
  const expected = headings
    .map((heading, at) => `- [${heading.replaceAll('[', '\\[').replaceAll(']', '\\]')}](#${anchors[at]})`)
    .join('\n');
  const start = text.indexOf('<!-- index -->');
  const end = text.indexOf('<!-- /index -->');
  assert.ok(start >= 0 && end > start, 'docs/decisions.md needs an index between <!-- index --> and <!-- /index -->');
  const index = text.slice(start + '<!-- index -->'.length, end).trim();
  assert.equal(index, expected, `the index should read:\n${expected}`);
});
