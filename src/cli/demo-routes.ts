/**
 * The demo's interactive routes, built with the writes the route operations use (insertRoute,
 * insertStep, wireStep) over the demo's ready videos, and walked by simulated viewers through the
 * same recording the route player posts to (recordRouteEvents, completeWithLead): different paths,
 * drop-offs, links followed, a few lead forms sent, over the ninety days. Two routes are live; a
 * third is a draft whose second step no choice leads to yet, so get_route has a problem to show.
 * Deterministic for a given library.
 */

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import type { RouteEvent } from '../domains/routes/index.ts';
import {
  completeWithLead,
  currentChoiceIdsByStep,
  insertRoute,
  insertStep,
  recordRouteEvents,
  type WiredChoice,
  wireStep,
} from '../domains/routes/index.ts';
import { oldestVideosAmong } from '../domains/videos/index.ts';
import { prng } from './demo-library.ts';
import { DEMO_ROUTE_TITLES, DEMO_ROUTES, type DemoChoice, type DemoRoute, type DemoStep } from './demo-route-plans.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 90;
/** The same pool of browsers the demo's viewing uses, so some choices belong to known leads. */
const VIEWER_POOL = 1200;

export interface DemoRouteVideo {
  id: string;
  title: string;
}

/** The served videos with their titles, among which the routes find theirs. */
export function demoRouteVideos(
  db: Kysely<Database>,
  workspaceId: string,
  served: readonly { id: string; archived: boolean }[],
): Promise<DemoRouteVideo[]> {
  const ids = served.filter((video) => !video.archived).map((video) => video.id);
  return oldestVideosAmong(db, workspaceId, ids, ids.length);
}

/**
 * Builds the routes and plays their visits over the last `historyDays` (the demo's ninety unless told
 * otherwise: a test walks the same routes over fewer days); returns how many routes there are.
 */
export async function playDemoRoutes(
  db: Kysely<Database>,
  workspaceId: string,
  videos: readonly DemoRouteVideo[],
  now: Date,
  historyDays = HISTORY_DAYS,
): Promise<number> {
  const byTitle = new Map(videos.map((video) => [video.title, video.id]));
  // A library without the routes' videos (another workspace's, say) gets no routes.
  if (![...DEMO_ROUTE_TITLES].every((title) => byTitle.has(title))) return 0;
  const random = prng(13_13_2026);
  const start = new Date(now.getTime() - historyDays * DAY_MS);
  let built = 0;
  for (const route of DEMO_ROUTES) {
    const { routeId, stepIds } = await buildRoute(db, workspaceId, route, byTitle, start);
    built += 1;
    const choiceIds = await currentChoiceIdsByStep(db, workspaceId, stepIds);
    for (let daysAgo = historyDays - 1; daysAgo >= 0; daysAgo--) {
      const count = Math.floor(route.perDay * (0.5 + random()) + random());
      for (let i = 0; i < count; i++) {
        const at = new Date(now.getTime() - daysAgo * DAY_MS - Math.floor(random() * 10 * 60 * 60 * 1000));
        if (at.getTime() <= start.getTime()) continue;
        await walk(db, { workspaceId, routeId, route, stepIds, choiceIds, random, at });
      }
    }
  }
  return built;
}

async function buildRoute(
  db: Kysely<Database>,
  workspaceId: string,
  route: DemoRoute,
  videoIdsByTitle: ReadonlyMap<string, string>,
  now: Date,
): Promise<{ routeId: string; stepIds: string[] }> {
  return db.transaction().execute(async (trx) => {
    const videoOf = (step: DemoStep) => videoIdsByTitle.get(step.video) as string;
    const [entry, ...rest] = route.steps as [DemoStep, ...DemoStep[]];
    // Made in its final status: the steps and choices below are wired in the same transaction.
    const { routeId, entryStepId } = await insertRoute(trx, {
      workspaceId,
      name: route.name,
      entryVideoId: videoOf(entry),
      status: route.status,
      now,
    });
    const stepIds = [entryStepId];
    for (const step of rest) stepIds.push(await insertStep(trx, { workspaceId, routeId, videoId: videoOf(step), now }));
    for (const [index, step] of route.steps.entries()) {
      if (!step.question || !step.choices) continue;
      await wireStep(trx, {
        workspaceId,
        routeId,
        stepId: stepIds[index] as string,
        question: step.question,
        askAtSeconds: null,
        choices: step.choices.map((choice) => wiredChoice(choice, stepIds)),
        now,
      });
    }
    return { routeId, stepIds };
  });
}

function wiredChoice(choice: DemoChoice, stepIds: readonly string[]): WiredChoice {
  if ('to' in choice) return { label: choice.label, target: 'step', toStepId: stepIds[choice.to] as string };
  if ('url' in choice) return { label: choice.label, target: 'url', url: choice.url };
  return { label: choice.label, target: 'leadForm' in choice ? 'lead_form' : 'end' };
}

/** One simulated visit: from the entry step, choosing by the choices' weights, until it ends or drops off. */
async function walk(
  db: Kysely<Database>,
  visit: {
    workspaceId: string;
    routeId: string;
    route: DemoRoute;
    stepIds: readonly string[];
    choiceIds: Map<string, string[]>;
    random: () => number;
    at: Date;
  },
): Promise<void> {
  const { workspaceId, route, stepIds, random } = visit;
  const key = {
    workspaceId,
    routeId: visit.routeId,
    visitId: randomUUID(),
    viewerId: `demo_viewer_${String(Math.floor(random() ** 1.5 * VIEWER_POOL)).padStart(5, '0')}`,
  };
  let at = visit.at.getTime();
  let stepIndex = 0;
  // A loop back to the start is allowed once or twice; a visit is at most a dozen steps.
  for (let index = 0; index < 12; index++) {
    const step = route.steps[stepIndex] as DemoStep;
    const stepId = stepIds[stepIndex] as string;
    const events: RouteEvent[] = [{ type: 'step', index, step_id: stepId }];
    at += 30_000 + Math.floor(random() * 120_000);
    if (!step.choices) {
      if (random() < 0.85) events.push({ type: 'finish', index, step_id: stepId });
      await recordRouteEvents(db, { ...key, events, now: new Date(at) });
      return;
    }
    if (random() < route.dropOff) {
      await recordRouteEvents(db, { ...key, events, now: new Date(at) });
      return;
    }
    const choiceIndex = pickWeighted(step.choices, random);
    const choice = step.choices[choiceIndex] as DemoChoice;
    events.push({ type: 'choice', index, step_id: stepId, choice_id: visit.choiceIds.get(stepId)?.[choiceIndex] as string });
    await recordRouteEvents(db, { ...key, events, now: new Date(at) });
    if ('to' in choice) {
      stepIndex = choice.to;
      continue;
    }
    if ('leadForm' in choice && random() < 0.6) {
      const n = Math.floor(random() * 100_000);
      await completeWithLead(db, {
        ...key,
        index,
        stepId,
        fields: { email: `route-visitor-${n}@example.com` },
        now: new Date(at + 20_000),
      });
    }
    return;
  }
}

function pickWeighted(choices: readonly DemoChoice[], random: () => number): number {
  const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
  let roll = random() * total;
  for (const [i, choice] of choices.entries()) {
    roll -= choice.weight;
    if (roll < 0) return i;
  }
  return choices.length - 1;
}
