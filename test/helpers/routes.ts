/**
 * Route test kit: wiring a step's question and choices with direct inserts (rows as add_route_branches
 * writes them), the route player page's data block, and the route as get_route answers it,
 * for comparing numbers with what was played.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { RouteDetail } from '../../src/domains/routes/routes.schemas.ts';
import type { TestApp } from './app.ts';

export type ChoiceSpec =
  | { label: string; target: 'step'; to: string }
  | { label: string; target: 'url'; url: string }
  | { label: string; target: 'booking'; eventTypeId: string }
  | { label: string; target: 'lead_form' | 'end' };

/** Sets the step's question and inserts its choices, in order; their ids, in the same order. */
export async function wireStep(
  harness: TestApp,
  workspaceId: string,
  route: { id: string },
  stepId: string,
  question: string,
  choices: ChoiceSpec[],
  askAtSeconds: number | null = null,
): Promise<string[]> {
  const db = harness.database.db;
  await db.updateTable('route_steps').set({ question, ask_at_seconds: askAtSeconds }).where('id', '=', stepId).execute();
  const ids = choices.map(() => randomUUID());
  await db
    .insertInto('route_choices')
    .values(
      choices.map((choice, position) => ({
        id: ids[position] as string,
        workspace_id: workspaceId,
        route_id: route.id,
        step_id: stepId,
        position,
        label: choice.label,
        target: choice.target,
        to_step_id: choice.target === 'step' ? choice.to : null,
        url: choice.target === 'url' ? choice.url : null,
        event_type_id: choice.target === 'booking' ? choice.eventTypeId : null,
      })),
    )
    .execute();
  return ids;
}

export interface PageStep {
  step_id: string;
  entry: boolean;
  video: {
    video_id: string;
    title: string;
    src: string;
    /** Its HLS master playlist, when it has a ready rendition. */
    hls: string | null;
    poster: string | null;
    duration: number | null;
    captions: { src: string; srclang: string | null; label: string } | null;
    token: string;
  } | null;
  question: string | null;
  ask_at_seconds: number | null;
  choices: {
    choice_id: string;
    label: string;
    target: string;
    url: string | null;
    to_step_id: string | null;
    event_type_id: string | null;
  }[];
}

export interface PageData {
  route_id: string;
  token: string;
  steps: PageStep[];
}

/** The route player page's data block. */
export function pageData(html: string): PageData {
  const match = /<script type="application\/json" id="cp-route">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('the page has no route data block');
  return JSON.parse(match[1]) as PageData;
}

/** The route as get_route answers it, over HTTP with the workspace's key. */
export async function routeAsShown(harness: TestApp, ws: { key: string }, routeId: string): Promise<Static<typeof RouteDetail>> {
  const answer = await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key });
  if (answer.status !== 200) throw new Error(`get_route answered ${answer.status}: ${answer.raw}`);
  return answer.body;
}
