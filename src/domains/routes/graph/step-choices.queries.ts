/** The choices steps offer now, by step. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** The ids of the current (not retired) choices of each given step, in each step's order. */
export async function currentChoiceIdsByStep(
  db: Kysely<Database>,
  workspaceId: string,
  stepIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('route_choices')
    .select(['id', 'step_id'])
    .where('workspace_id', '=', workspaceId)
    .where('step_id', 'in', stepIds)
    .where('retired_at', 'is', null)
    .orderBy('step_id')
    .orderBy('position')
    .execute();
  const byStep = new Map<string, string[]>();
  for (const row of rows) byStep.set(row.step_id, [...(byStep.get(row.step_id) ?? []), row.id]);
  return byStep;
}
