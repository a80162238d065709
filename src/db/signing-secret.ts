/**
 * The secret that signs cursors and upload URLs: CUEPOINT_SECRET when set, otherwise one generated on
 * first start and kept in the database, so every process of the deployment uses the same one.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './tables/index.ts';

export async function resolveSigningSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('service_settings')
    .values({ name: 'signing_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('service_settings').select('value').where('name', '=', 'signing_secret').executeTakeFirstOrThrow();
  return row.value;
}
