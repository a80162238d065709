/**
 * The walls between areas, read from the source (docs/architecture.md, "Areas and front doors"):
 *
 * - code outside an area reaches it only through its front door, `src/domains/<area>/index.ts`;
 *   the two assemblers are the exceptions, `src/catalog.ts` taking each area's `operations.ts` and
 *   `src/event-catalog.ts` each area's `<area>.events.ts`;
 * - every table has one owning area (TABLE_OWNERS), and only that area's code names it in a query;
 *   the service's own tables (the outbox, jobs, idempotency records, settings) belong to the
 *   infrastructure below the areas and are named by no area;
 * - the arrows between areas are the ones docs/architecture.md lists, so a new one is a decision
 *   someone wrote down.
 *
 * Test files are outside the walls: a test of one area may arrange another area's rows directly.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const DOMAINS = 'src/domains';

/** Which area owns each table; `infrastructure` tables are the service's own, named only outside the areas. */
export const TABLE_OWNERS: Record<string, string> = {
  workspaces: 'workspace',
  credentials: 'api-keys',
  oauth_clients: 'assistants',
  oauth_codes: 'assistants',
  oauth_grants: 'assistants',
  oauth_refresh_tokens: 'assistants',
  users: 'people',
  members: 'people',
  invitations: 'people',
  sessions: 'people',
  one_time_tokens: 'people',
  passkeys: 'people',
  sign_in_failures: 'people',
  audit_events: 'audit',
  workspace_slugs: 'channel',
  channels: 'channel',
  channel_items: 'channel',
  channel_views: 'channel',
  channel_item_opens: 'channel',
  folders: 'videos',
  videos: 'videos',
  video_renditions: 'videos',
  video_uploads: 'videos',
  video_transcripts: 'transcripts',
  transcript_segments: 'transcripts',
  viewing_sessions: 'viewing',
  viewing_batches: 'viewing',
  viewing_fold: 'viewing',
  video_stats: 'viewing',
  video_daily_stats: 'viewing',
  video_heatmaps: 'viewing',
  workspace_daily_stats: 'viewing',
  workspace_daily_revenue: 'viewing',
  leads: 'leads',
  lead_viewers: 'leads',
  lead_activities: 'leads',
  outcomes: 'outcomes',
  routes: 'routes',
  route_steps: 'routes',
  route_choices: 'routes',
  route_visits: 'routes',
  route_visit_steps: 'routes',
  route_step_counts: 'routes',
  route_choice_counts: 'routes',
  route_path_counts: 'routes',
  event_types: 'scheduling',
  bookings: 'scheduling',
  calendar_feeds: 'scheduling',
  calendar_busy_times: 'scheduling',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  events: 'infrastructure',
  jobs: 'infrastructure',
  idempotency_keys: 'infrastructure',
  service_settings: 'infrastructure',
  email_outbox: 'email',
};

function sourceFiles(top: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, top), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.ts$/.test(entry.name) || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) continue;
    const path = relative(ROOT, join(entry.parentPath, entry.name));
    if (path.startsWith('bench/results/')) continue;
    found.push(path);
  }
  return found.sort();
}

/** The area a file belongs to: `videos` for src/domains/videos/…, or undefined outside the areas. */
function areaOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'src' && parts[1] === 'domains' && parts.length > 3 ? parts[2] : undefined;
}

const IMPORT = /^(?:import|export)\s[^;]*?from\s*'(\.{1,2}\/[^']+)';|^import\s*'(\.{1,2}\/[^']+)';|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;

function relativeImports(path: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => normalize(join(dirname(path), match[1] ?? match[2] ?? match[3] ?? '')));
}

/** Whether `from` may import `target` of another area. */
function throughTheFrontDoor(from: string, target: string, area: string): boolean {
  if (target === `${DOMAINS}/${area}/index.ts`) return true;
  if (from === 'src/catalog.ts' && target === `${DOMAINS}/${area}/operations.ts`) return true;
  if (from === 'src/event-catalog.ts' && target === `${DOMAINS}/${area}/${area}.events.ts`) return true;
  return false;
}

const CHECKED = [...sourceFiles('src'), ...sourceFiles('bench')];
/**
 * The table rule covers the service's code. The benchmarks seed millions of rows with bulk SQL, as
 * the tests arrange theirs: harnesses, like migrations, write the tables as they are.
 */
const SERVICE_CODE = CHECKED.filter((path) => path.startsWith('src/') && !path.startsWith('src/db/migrations/'));

test('code outside an area reaches it only through its front door', () => {
  const wrong: string[] = [];
  for (const path of CHECKED) {
    for (const target of relativeImports(path, readFileSync(join(ROOT, path), 'utf8'))) {
      const area = areaOf(target);
      if (area === undefined || area === areaOf(path)) continue;
      if (!throughTheFrontDoor(path, target, area)) wrong.push(`${path} imports ${target}`);
    }
  }
  assert.deepEqual(wrong, [], `import these through the area's index.ts instead:\n${wrong.join('\n')}`);
});

/** Tables a file names: in Kysely calls, and in FROM, JOIN, INTO and UPDATE clauses of its sql`` templates. */
function tablesNamed(text: string): Set<string> {
  const names = new Set<string>();
  const builder =
    /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto|using)\(\s*'([a-z_]+)/g;
  for (const match of text.matchAll(builder)) names.add(match[1] ?? '');
  for (const template of text.matchAll(/sql(?:<[^`]*?>)?`([^`]*)`/g)) {
    for (const match of (template[1] ?? '').matchAll(/\b(?:from|join|into|update)\s+([a-z_]+)\b/gi)) names.add(match[1] ?? '');
  }
  for (const match of text.matchAll(/\bsql\.table\(\s*'([a-z_]+)'/g)) names.add(match[1] ?? '');
  // findInWorkspace(db, 'videos', id) reads a table by name too.
  for (const match of text.matchAll(/\bfindInWorkspace\(\s*[\w.]+,\s*'([a-z_]+)'/g)) names.add(match[1] ?? '');
  return new Set([...names].filter((name) => Object.hasOwn(TABLE_OWNERS, name)));
}

test("an area's tables are queried by that area alone, the service's own tables by no area", () => {
  const wrong: string[] = [];
  for (const path of SERVICE_CODE) {
    const area = areaOf(path) ?? 'infrastructure';
    for (const table of tablesNamed(readFileSync(join(ROOT, path), 'utf8'))) {
      if (TABLE_OWNERS[table] !== area) wrong.push(`${path} (${area}) queries ${table}, a table of ${TABLE_OWNERS[table]}`);
    }
  }
  assert.deepEqual(wrong, [], `ask the owning area's front door for a named query instead:\n${wrong.join('\n')}`);
});

test('every table in the Database type has an owner', () => {
  const tables = readFileSync(join(ROOT, 'src/db/tables/index.ts'), 'utf8');
  const body = tables.slice(tables.indexOf('export interface Database {'));
  const declared = [...body.slice(0, body.indexOf('}')).matchAll(/^\s+([a-z_]+):/gm)].map((match) => match[1] ?? '');
  assert.deepEqual(
    declared.filter((table) => !Object.hasOwn(TABLE_OWNERS, table)),
    [],
  );
  assert.deepEqual(
    Object.keys(TABLE_OWNERS).filter((table) => !declared.includes(table)),
    [],
  );
});

test('the arrows between areas are the ones docs/architecture.md lists', () => {
  const arrows = new Set<string>();
  for (const path of CHECKED) {
    const from = areaOf(path);
    if (from === undefined) continue;
    for (const target of relativeImports(path, readFileSync(join(ROOT, path), 'utf8'))) {
      const to = areaOf(target);
      if (to !== undefined && to !== from) arrows.add(`${from} → ${to}`);
    }
  }
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('<!-- area arrows -->'), doc.indexOf('<!-- /area arrows -->'));
  const listed = new Set([...section.matchAll(/^- `([a-z-]+)` → `([a-z-]+)`/gm)].map((match) => `${match[1]} → ${match[2]}`));
  assert.deepEqual(
    [...arrows].filter((arrow) => !listed.has(arrow)).sort(),
    [],
    'arrows in the code that docs/architecture.md does not list',
  );
  assert.deepEqual(
    [...listed].filter((arrow) => !arrows.has(arrow)).sort(),
    [],
    'arrows docs/architecture.md lists that the code no longer has',
  );
});

test('every folder of the public transport is a surface on the one list, or one of its shared rooms', async () => {
  const { PUBLIC_SURFACES } = await import('../src/transports/public/surfaces.ts');
  const folders = readdirSync(join(ROOT, 'src/transports/public'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['http', 'assets'].includes(entry.name))
    .map((entry) => entry.name)
    .sort();
  assert.deepEqual(PUBLIC_SURFACES.map((surface) => surface.name).sort(), folders);
});

/** The files a module loads when it is evaluated: its relative imports that are not type-only. */
function valueImports(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(import|export)(\s+type)?\s*(\{[^}]*\})?[^;']*?(?:from\s*)?'(\.{1,2}\/[^']+)';/gm)) {
    if (match[2]) continue;
    const names = match[3];
    if (
      names
        ?.slice(1, -1)
        .split(',')
        .every((name) => name.trim() === '' || name.trim().startsWith('type '))
    )
      continue;
    found.push(normalize(join(dirname(path), match[4] ?? '')));
  }
  return found;
}

test('a front door lists the files that reach no other area first, so schemas are built before a cycle can read them', () => {
  const reachesOtherAreas = (start: string, area: string): boolean => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      const path = queue.pop() ?? '';
      for (const next of valueImports(path)) {
        if (!next.startsWith('src/') || seen.has(next)) continue;
        const other = areaOf(next);
        if (other !== undefined && other !== area) return true;
        seen.add(next);
        queue.push(next);
      }
    }
    return false;
  };
  const wrong: string[] = [];
  for (const entry of readdirSync(join(ROOT, DOMAINS), { withFileTypes: true })) {
    const index = `${DOMAINS}/${entry.name}/index.ts`;
    if (!entry.isDirectory() || !CHECKED.includes(index)) continue;
    let reachedBefore: string | undefined;
    for (const file of valueImports(index)) {
      if (reachesOtherAreas(file, entry.name)) reachedBefore ??= file;
      else if (reachedBefore) wrong.push(`${index}: ${file} comes after ${reachedBefore}, which reaches another area`);
    }
  }
  assert.deepEqual(wrong, []);
});
