/**
 * Seeds a workspace with one live interactive route and its visits for the route-read benchmark
 * (bench/route-reads.ts), in bulk, since a million visits through POST /r/{route_id}/events would
 * take hours on a small machine:
 *
 * 1. Six ready videos, and the route built through the service's own API (create_route,
 *    add_route_branches with to_video, update_route to live), so its graph is one the service accepts
 *    and validates, not one the benchmark made up:
 *
 *        entry ─ "Show me the product" → tour ─ "See a demo"    → demo          (last step)
 *              │                             └ "Read the docs" → https link
 *              ├ "What does it cost?"  → pricing ─ "Starter"    → starter       (last step)
 *              │                               └ "Enterprise" → enterprise ─ "Talk to sales" → lead form
 *              └ "Just browsing"       → end                                   └ "No thanks"     → end
 *
 *    Two draft routes besides (entry step only, no visits), so list_routes has more than one row.
 * 2. The visits, made by PostgreSQL from generate_series and a hash of the visit number
 *    (hashint8extended), each given one of the 13 paths below with its share: drop-offs at every
 *    step (some after choosing the lead form without sending it), the end card, the link, the last
 *    steps played out and the lead form sent. Visits start over the last 90 days, 45 s apart per
 *    step, from a pool of a third as many viewers as visits. Two `insert … select`: route_visits in
 *    their final state (steps_reached, ended_by, completed_at as route-visits.ts leaves them) and
 *    route_visit_steps, one row per step reached with the choice made there.
 * 3. The numbers get_route should answer (per step, per choice, the most common paths), worked out
 *    in JavaScript from how many visits took each path, for route-reads.ts to compare with the answer.
 */

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createWorkspace } from '../src/create-workspace.ts';
import { rebuildRouteCounters } from '../src/domains/routes/index.ts';
import type { BenchPool } from './throwaway-database.ts';

const HISTORY_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const SECONDS_PER_STEP = 45;

type StepName = 'entry' | 'tour' | 'pricing' | 'demo' | 'starter' | 'enterprise';
type ChoiceName = 'product' | 'cost' | 'browsing' | 'demo' | 'docs' | 'starter' | 'enterprise' | 'sales' | 'noThanks';
type Ending = 'end' | 'lead_form' | 'last_step' | 'url' | null;

const VIDEOS: Record<StepName, { title: string; seconds: number }> = {
  entry: { title: 'Route benchmark: welcome', seconds: 45 },
  tour: { title: 'Route benchmark: product tour', seconds: 180 },
  pricing: { title: 'Route benchmark: pricing', seconds: 120 },
  demo: { title: 'Route benchmark: demo', seconds: 300 },
  starter: { title: 'Route benchmark: starter plan', seconds: 90 },
  enterprise: { title: 'Route benchmark: enterprise plan', seconds: 150 },
};

const LABELS: Record<ChoiceName, string> = {
  product: 'Show me the product',
  cost: 'What does it cost?',
  browsing: 'Just browsing',
  demo: 'See a demo',
  docs: 'Read the docs',
  starter: 'Starter',
  enterprise: 'Enterprise',
  sales: 'Talk to sales',
  noThanks: 'No thanks',
};

interface PathTemplate {
  share: number;
  steps: StepName[];
  /** The choice made at each step, in order; fewer than steps when the visit stopped at its last step. */
  choices: ChoiceName[];
  ending: Ending;
}

/** Every way through the route, with the share of visits taking it (they add up to 1). */
export const PATHS: PathTemplate[] = [
  { share: 0.15, steps: ['entry'], choices: [], ending: null },
  { share: 0.1, steps: ['entry'], choices: ['browsing'], ending: 'end' },
  { share: 0.09, steps: ['entry', 'tour'], choices: ['product'], ending: null },
  { share: 0.135, steps: ['entry', 'tour'], choices: ['product', 'docs'], ending: 'url' },
  { share: 0.0675, steps: ['entry', 'tour', 'demo'], choices: ['product', 'demo'], ending: null },
  { share: 0.1575, steps: ['entry', 'tour', 'demo'], choices: ['product', 'demo'], ending: 'last_step' },
  { share: 0.045, steps: ['entry', 'pricing'], choices: ['cost'], ending: null },
  { share: 0.05775, steps: ['entry', 'pricing', 'starter'], choices: ['cost', 'starter'], ending: null },
  { share: 0.10725, steps: ['entry', 'pricing', 'starter'], choices: ['cost', 'starter'], ending: 'last_step' },
  { share: 0.018, steps: ['entry', 'pricing', 'enterprise'], choices: ['cost', 'enterprise'], ending: null },
  { share: 0.036, steps: ['entry', 'pricing', 'enterprise'], choices: ['cost', 'enterprise', 'sales'], ending: 'lead_form' },
  // Chose the lead form and never sent it: a drop-off at the enterprise step.
  { share: 0.009, steps: ['entry', 'pricing', 'enterprise'], choices: ['cost', 'enterprise', 'sales'], ending: null },
  { share: 0.027, steps: ['entry', 'pricing', 'enterprise'], choices: ['cost', 'enterprise', 'noThanks'], ending: 'end' },
];

const completes = (ending: Ending) => ending !== null && ending !== 'url';

export interface ExpectedRoute {
  starts: number;
  completions: number;
  steps: Map<string, { reached: number; finished: number; droppedOff: number }>;
  choices: Map<string, number>;
  /** Visits per path (step ids and choice labels joined), for the top paths get_route lists. */
  paths: Map<string, { visits: number; completed: number }>;
}

export interface SeededRouteWorkspace {
  workspaceId: string;
  apiKey: string;
  timeZone: string;
  visits: number;
  routeId: string;
  rows: { routeVisits: number; routeVisitSteps: number; routes: number };
  expected: ExpectedRoute;
  seconds: { graph: number; visits: number };
}

/** A call to the service as the workspace's admin key; throws unless it answers 2xx. */
export type ServiceCall = (apiKey: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => Promise<unknown>;

interface RouteAnswer {
  route_id: string;
  steps: { step_id: string; video: { video_id: string }; choices: { choice_id: string; label: string }[] }[];
}

export async function seedRouteWorkspace(
  database: BenchPool,
  call: ServiceCall,
  visits: number,
  now: Date,
  log: (line: string) => void,
): Promise<SeededRouteWorkspace> {
  const db = database.db;
  const { workspace, apiKey } = await createWorkspace(db, { name: `Route benchmark, ${visits} visits`, plan: 'business', now });
  const createdAt = new Date(now.getTime() - (HISTORY_DAYS + 10) * DAY_MS);
  const videoIds = Object.fromEntries(Object.keys(VIDEOS).map((name) => [name, randomUUID()])) as Record<StepName, string>;
  await db
    .insertInto('videos')
    .values(
      (Object.entries(VIDEOS) as [StepName, { title: string; seconds: number }][]).map(([name, video]) => ({
        id: videoIds[name],
        workspace_id: workspace.id,
        folder_id: null,
        title: video.title,
        status: 'ready' as const,
        source_url: null,
        file_name: `${name}.mp4`,
        file_size: 20_000_000,
        duration_seconds: video.seconds,
        width: 1280,
        height: 720,
        failure_reason: null,
        created_at: createdAt,
        updated_at: createdAt,
      })),
    )
    .execute();

  // ── 1: the graph, through the API ────────────────────────────────────────────────────────────────
  const graphBegan = performance.now();
  const created = (await call(apiKey, 'POST', '/v1/routes', { entry_video: videoIds.entry, name: 'Which plan fits you?' })) as RouteAnswer;
  const routeId = created.route_id;
  const branches = (from: StepName | undefined, question: string, list: Record<string, unknown>[]) =>
    call(apiKey, 'POST', `/v1/routes/${routeId}/branches`, {
      ...(from ? { from_step_id: stepIds[from] } : {}),
      question,
      branches: list,
    }) as Promise<RouteAnswer>;
  const stepIds = {} as Record<StepName, string>;
  const learnSteps = (answer: RouteAnswer) => {
    for (const step of answer.steps) {
      const name = (Object.keys(videoIds) as StepName[]).find((n) => videoIds[n] === step.video.video_id);
      if (name) stepIds[name] = step.step_id;
    }
  };
  learnSteps(created);
  learnSteps(
    await branches(undefined, 'What brings you here?', [
      { label: LABELS.product, to_video: videoIds.tour },
      { label: LABELS.cost, to_video: videoIds.pricing },
      { label: LABELS.browsing, end: true },
    ]),
  );
  learnSteps(
    await branches('tour', 'Want to go further?', [
      { label: LABELS.demo, to_video: videoIds.demo },
      { label: LABELS.docs, url: 'https://docs.example.com/getting-started' },
    ]),
  );
  learnSteps(
    await branches('pricing', 'Which plan?', [
      { label: LABELS.starter, to_video: videoIds.starter },
      { label: LABELS.enterprise, to_video: videoIds.enterprise },
    ]),
  );
  await branches('enterprise', 'Shall we call you?', [
    { label: LABELS.sales, lead_form: true },
    { label: LABELS.noThanks, end: true },
  ]);
  const live = (await call(apiKey, 'PATCH', `/v1/routes/${routeId}`, { status: 'live' })) as RouteAnswer;
  const choiceIds = {} as Record<ChoiceName, string>;
  for (const step of live.steps)
    for (const choice of step.choices) {
      const name = (Object.keys(LABELS) as ChoiceName[]).find((n) => LABELS[n] === choice.label);
      if (name) choiceIds[name] = choice.choice_id;
    }
  if (Object.keys(stepIds).length !== 6 || Object.keys(choiceIds).length !== 9)
    throw new Error(
      `the route came out with ${Object.keys(stepIds).length} steps and ${Object.keys(choiceIds).length} choices, not 6 and 9`,
    );
  // The route existed before its first visit.
  await db.updateTable('routes').set({ created_at: createdAt }).where('id', '=', routeId).execute();
  for (const name of ['Pricing draft', 'Onboarding draft'])
    await call(apiKey, 'POST', '/v1/routes', { entry_video: videoIds.pricing, name });
  const graphSeconds = (performance.now() - graphBegan) / 1000;

  // ── 2: the visits, in SQL ────────────────────────────────────────────────────────────────────────
  const visitsBegan = performance.now();
  // Where each path's share begins in [0, 1): width_bucket of a uniform number picks the path.
  const starts = PATHS.map((_, index) => PATHS.slice(0, index).reduce((sum, path) => sum + path.share, 0));
  const templateSteps = PATHS.flatMap((path, index) =>
    path.steps.map((step, position) => ({ index, position, stepId: stepIds[step], choice: path.choices[position] })),
  );
  const staging = `bench_route_${workspace.id.replaceAll('-', '').slice(0, 12)}`;
  const seed = visits % 100_000;
  const u = (k: number) => sql.raw(`((hashint8extended(i, ${seed * 100 + k}) & 4294967295)::float8 / 4294967296.0)`);
  const viewerPool = Math.max(1000, Math.floor(visits / 3));
  await sql`
    create unlogged table ${sql.table(staging)} as
    with p as (
      select (t.ord - 1)::int as path, t.steps, t.ending, t.completes
      from unnest(${PATHS.map((p) => p.steps.length)}::int[], ${PATHS.map((p) => p.ending ?? '')}::text[],
                  ${PATHS.map((p) => completes(p.ending))}::bool[]) with ordinality as t(steps, ending, completes, ord)
    ),
    r as (
      select i, ${u(1)} as u_path, ${u(2)} as u_time, ${u(3)} as u_viewer from generate_series(1, ${visits}::bigint) as i
    )
    select gen_random_uuid() as visit_id, chosen.path, chosen.steps, nullif(chosen.ending, '') as ending, chosen.completes,
           ${now}::timestamptz - (r.u_time * ${(HISTORY_DAYS * DAY_MS) / 1000})::bigint * interval '1 second'
             - chosen.steps * ${SECONDS_PER_STEP} * interval '1 second' as started_at,
           'bench_viewer_' || lpad(floor(r.u_viewer * ${viewerPool})::bigint::text, 8, '0') as viewer_id
    from r join p chosen on chosen.path = width_bucket(r.u_path, ${starts}::float8[]) - 1`.execute(db);
  try {
    await sql`
      insert into route_visits (id, workspace_id, route_id, viewer_id, lead_id, started_at, last_at, steps_reached, ended_by, completed_at)
      select visit_id, ${workspace.id}, ${routeId}, viewer_id, null, started_at,
             started_at + steps * ${SECONDS_PER_STEP} * interval '1 second', steps, ending,
             case when completes then started_at + steps * ${SECONDS_PER_STEP} * interval '1 second' end
      from ${sql.table(staging)}`.execute(db);
    await sql`
      insert into route_visit_steps (visit_id, position, workspace_id, route_id, step_id, reached_at, choice_id, choice_label, chosen_at)
      select s.visit_id, t.position, ${workspace.id}, ${routeId}, t.step_id,
             s.started_at + t.position * ${SECONDS_PER_STEP} * interval '1 second',
             t.choice_id, t.label,
             case when t.choice_id is not null then s.started_at + (t.position * ${SECONDS_PER_STEP} + 40) * interval '1 second' end
      from ${sql.table(staging)} s
      join unnest(${templateSteps.map((t) => t.index)}::int[], ${templateSteps.map((t) => t.position)}::int[],
                  ${templateSteps.map((t) => t.stepId)}::uuid[], ${templateSteps.map((t) => (t.choice ? choiceIds[t.choice] : null))}::uuid[],
                  ${templateSteps.map((t) => (t.choice ? LABELS[t.choice] : null))}::text[]) as t(path, position, step_id, choice_id, label)
        on t.path = s.path`.execute(db);
    // Written around the recording, which keeps the route's counters: count them once from the rows.
    await rebuildRouteCounters(db, { workspaceId: workspace.id, routeId });
    const taken = (
      await sql<{ path: number; visits: number }>`select path, count(*)::int as visits from ${sql.table(staging)} group by path`.execute(db)
    ).rows;
    const counts = (
      await sql<{ visits: string; steps: string }>`
        select (select count(*) from route_visits where route_id = ${routeId}) as visits,
               (select count(*) from route_visit_steps where route_id = ${routeId}) as steps`.execute(db)
    ).rows[0];
    const visitSeconds = (performance.now() - visitsBegan) / 1000;
    log(`  ${visits} visits: ${counts?.steps} path rows written in ${visitSeconds.toFixed(1)} s`);
    return {
      workspaceId: workspace.id,
      apiKey,
      timeZone: workspace.timezone,
      visits,
      routeId,
      rows: { routeVisits: Number(counts?.visits), routeVisitSteps: Number(counts?.steps), routes: 3 },
      expected: expectedNumbers(taken, stepIds, choiceIds),
      seconds: { graph: graphSeconds, visits: visitSeconds },
    };
  } finally {
    await sql`drop table if exists ${sql.table(staging)}`.execute(db);
  }
}

/** What get_route should say, from how many visits took each path (step 3). */
function expectedNumbers(
  taken: { path: number; visits: number }[],
  stepIds: Record<StepName, string>,
  choiceIds: Record<ChoiceName, string>,
): ExpectedRoute {
  const expected: ExpectedRoute = { starts: 0, completions: 0, steps: new Map(), choices: new Map(), paths: new Map() };
  for (const id of Object.values(stepIds)) expected.steps.set(id, { reached: 0, finished: 0, droppedOff: 0 });
  for (const id of Object.values(choiceIds)) expected.choices.set(id, 0);
  for (const { path: index, visits } of taken) {
    const path = PATHS[index] as PathTemplate;
    expected.starts += visits;
    if (completes(path.ending)) expected.completions += visits;
    path.steps.forEach((name, position) => {
      const numbers = expected.steps.get(stepIds[name]) as { reached: number; finished: number; droppedOff: number };
      numbers.reached += visits;
      if (position === path.steps.length - 1) {
        if (path.ending === 'last_step') numbers.finished += visits;
        if (path.ending === null) numbers.droppedOff += visits;
      }
    });
    for (const choice of path.choices) expected.choices.set(choiceIds[choice], (expected.choices.get(choiceIds[choice]) ?? 0) + visits);
    const key = pathKey(
      path.steps.map((name) => stepIds[name]),
      path.choices.map((choice) => LABELS[choice]),
    );
    const entry = expected.paths.get(key) ?? { visits: 0, completed: 0 };
    entry.visits += visits;
    if (completes(path.ending)) entry.completed += visits;
    expected.paths.set(key, entry);
  }
  return expected;
}

export const pathKey = (stepIds: readonly string[], choices: readonly string[]) => `${stepIds.join('>')} | ${choices.join('>')}`;
