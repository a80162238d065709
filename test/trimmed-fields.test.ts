/**
 * Fields stored trimmed are trimmed first, then judged (issue 26: update_channel refused the dek
 * "\n  Spaced dek  " for its line break instead of trimming it). Every field the docs say is trimmed
 * is marked so in its operation's schema (`x-trimmed`, core/schemas.ts `Trimmed`), and every marked
 * field of every operation, sent with spaces and line breaks around its example value, is not named
 * as a problem.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import { TRIMMED } from '../src/core/pipeline/trimmed-strings.ts';
import { startTestApp } from './helpers/app.ts';
import { restRequest } from './helpers/operation-request.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

/** Where the docs say a field is trimmed (docs/channel.md, operations.md, leads-and-outcomes.md, scheduling.md). */
const DOCUMENTED: Record<string, string[]> = {
  update_channel: ['headline', 'dek'],
  upsert_lead: ['email', 'tags[]'],
  update_lead: ['email', 'tags[]'],
  record_outcome: ['email'],
  create_booking: ['invitee_email'],
  update_video: ['title', 'tags[]'],
  create_video_upload: ['title', 'tags[]'],
  import_video: ['title', 'tags[]'],
  create_folder: ['name'],
  update_folder: ['name'],
  create_route: ['name'],
  update_route: ['name'],
  add_route_branches: ['branches[].label'],
  create_event_type: ['name'],
  update_event_type: ['name'],
  get_scheduling_availability: ['event_type'],
  create_calendar_feed: ['name'],
  rename_tag: ['tag', 'new_tag'],
};

interface Schema {
  type?: string | string[];
  [TRIMMED]?: boolean;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
}

const branches = (schema: Schema): Schema[] => schema.anyOf ?? [schema];

/** The schema at a documented path (`branches[].label`). */
function schemaAt(op: AnyOperation, path: string): Schema | undefined {
  let schema: Schema | undefined = op.input as Schema;
  for (const part of path.split('.')) {
    const name = part.replace('[]', '');
    schema = branches(schema ?? {}).find((branch) => branch.properties?.[name])?.properties?.[name];
    if (part.endsWith('[]')) schema = branches(schema ?? {}).find((branch) => branch.items)?.items;
  }
  return schema;
}

/** Each marked string of `value` (per `schema`), as [its field as an answer names it, `value` with that string wrapped in blanks]. */
function wrappedPlaces(schema: Schema, value: unknown, field: string): [string, unknown][] {
  if (typeof value === 'string') {
    return branches(schema).some((branch) => branch[TRIMMED]) ? [[field, `\n  ${value} \t\r\n`]] : [];
  }
  if (Array.isArray(value)) {
    const items = branches(schema).find((branch) => branch.items)?.items;
    if (!items || value.length === 0) return [];
    return wrappedPlaces(items, value[0], `${field}[0]`).map(([at, item]) => [at, [item, ...value.slice(1)]]);
  }
  if (value !== null && typeof value === 'object') {
    const properties = branches(schema).find((branch) => branch.properties)?.properties ?? {};
    return Object.entries(value).flatMap(([name, inner]) =>
      properties[name]
        ? wrappedPlaces(properties[name], inner, field ? `${field}.${name}` : name).map(([at, changed]): [string, unknown] => [
            at,
            { ...value, [name]: changed },
          ])
        : [],
    );
  }
  return [];
}

test('every field the docs say is trimmed is marked trimmed in its operation’s schema', () => {
  const unmarked = Object.entries(DOCUMENTED).flatMap(([name, paths]) => {
    const op = catalog.find((candidate) => candidate.name === name);
    if (!op) return [`${name}: no such operation`];
    return paths.filter((path) => !branches(schemaAt(op, path) ?? {}).some((branch) => branch[TRIMMED])).map((path) => `${name}.${path}`);
  });
  assert.deepEqual(unmarked, []);
});

test('every marked field, sent with spaces and line breaks around it, is trimmed rather than refused', async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace('business');
  const video = await ws.addVideo({ title: 'Which plan fits you?' });
  // Inactive: availability finds it by name, and create_event_type may still take the name.
  await ws.addEventType({ name: 'Intro call', active: false });
  const failures: string[] = [];
  let sent = 0;
  for (const op of catalog) {
    const example = { ...(op.example as Record<string, unknown>) };
    if ('video_id' in example) example.video_id = video;
    for (const [field, input] of wrappedPlaces(op.input as Schema, example, '')) {
      const req = restRequest(op, input as Record<string, unknown>);
      const res = await request(req.method, req.url, { token: ws.key, body: req.body });
      sent++;
      if (res.status >= 500) failures.push(`${op.name} ${field}: answered ${res.status}`);
      const named = (res.body?.error?.details?.errors ?? []).find((p: { field: string }) => p.field === field);
      if (named) failures.push(`${op.name} ${field}: ${named.problem}`);
    }
  }
  assert.ok(sent >= 20, `sent ${sent} requests`);
  assert.deepEqual(failures, []);
});
