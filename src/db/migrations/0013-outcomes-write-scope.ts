/**
 * Scope `outcomes:write` joined the `write` and `admin` tiers (record_outcome, issue 12). Keys made
 * before it existed were made with every write scope their tier had then; without this they would
 * be the only write or admin keys unable to record outcomes. So a credential that holds every other
 * `:write` scope and `outcomes:read` (a write or admin key, or a custom one as broad) gains it; a
 * narrower custom key is left as its maker chose. Scopes stay in the canonical order (core/scopes.ts
 * as of this migration).
 */
import { type Kysely, sql } from 'kysely';

const CANONICAL_ORDER = [
  'videos:read',
  'videos:write',
  'analytics:read',
  'outcomes:read',
  'outcomes:write',
  'leads:read',
  'leads:write',
  'transcripts:read',
  'routes:read',
  'routes:write',
  'channel:write',
  'workspace:read',
  'workspace:manage',
];
const EVERY_OTHER_WRITE_SCOPE = ['videos:write', 'leads:write', 'routes:write', 'channel:write', 'outcomes:read'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update credentials
    set scopes = array(
      select scope from unnest(scopes || array['outcomes:write']) as scope
      order by array_position(${sql.val(CANONICAL_ORDER)}::text[], scope)
    )
    where scopes @> ${sql.val(EVERY_OTHER_WRITE_SCOPE)}::text[] and not ('outcomes:write' = any(scopes))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update credentials set scopes = array_remove(scopes, 'outcomes:write') where 'outcomes:write' = any(scopes)`.execute(db);
}
