/**
 * Every event type has exactly one emitter, and every event reaches the outbox the same way
 * (docs/architecture.md, "Events"): read from the source, so a second place that announces
 * `lead.created` by hand, or a write that records an event behind the outbox's back, fails here.
 *
 * An emitter is a call `emit('<type>', …)` of an Emit (`ctx.emit` in an operation, or one made by
 * `outboxEmitter` for a write that owns its transaction). The areas wrap their shared announcements
 * in one function (`emitLeadChange`, `emitVideoCreated`, `emitVideoUpdated`) that every writer calls.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { EVENT_TYPES } from '../src/event-catalog.ts';

const ROOT = join(import.meta.dirname, '..');

/** Event types never recorded in the outbox: test_webhook_endpoint sends `webhook.test` straight to one endpoint. */
const SENT_DIRECTLY = new Set(['webhook.test']);

const SOURCES = readdirSync(join(ROOT, 'src'), { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
  .map((entry) => {
    const path = relative(ROOT, join(entry.parentPath, entry.name));
    return { path, text: readFileSync(join(ROOT, path), 'utf8') };
  });

test('every event type the outbox records has exactly one emitter', () => {
  const emitters = new Map<string, string[]>(EVENT_TYPES.map((type) => [type, []]));
  for (const { path, text } of SOURCES) {
    for (const match of text.matchAll(/\bemit\(\s*'([a-z_]+\.[a-z_]+)'/g)) {
      const type = match[1] ?? '';
      const line = text.slice(0, match.index).split('\n').length;
      const sites = emitters.get(type);
      assert.ok(sites, `${path}:${line} emits ${type}, which is not in the event catalog`);
      sites.push(`${path}:${line}`);
    }
  }
  for (const [type, sites] of emitters) {
    const expected = SENT_DIRECTLY.has(type) ? 0 : 1;
    assert.equal(sites.length, expected, `${type} is emitted at ${sites.length} places (${sites.join(', ') || 'none'}), not ${expected}`);
  }
});

test('events reach the outbox only through an Emit', () => {
  const direct = SOURCES.filter(({ path, text }) => path !== 'src/db/outbox.ts' && /\brecordEvent\(/.test(text)).map(({ path }) => path);
  assert.deepEqual(direct, [], 'record events with ctx.emit or an outboxEmitter instead');
  const emitsByVariable = SOURCES.flatMap(({ path, text }) =>
    [...text.matchAll(/\bemit\(\s*[a-zA-Z_]/g)].map((match) => `${path}:${text.slice(0, match.index).split('\n').length}`),
  );
  assert.deepEqual(emitsByVariable, [], 'an emit call names its event type as a literal, so its emitter can be found');
});

test('core does not import the outbox: the pipeline is handed it', () => {
  const importers = SOURCES.filter(({ path, text }) => path.startsWith('src/core/') && /from '[./]*db\/outbox\.ts'/.test(text)).map(
    ({ path }) => path,
  );
  assert.deepEqual(importers, []);
});
