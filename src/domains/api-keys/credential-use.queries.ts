/**
 * When a credential was last used (`credentials.last_used_at`, shown by list_api_keys), as
 * authentication records it. A credential is found by its token before its workspace is known, and
 * its id is unique across workspaces, so this write is by id alone.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/**
 * Sets the credential's last use to `now` unless it is already after `staleBefore`; the update repeats
 * the caller's check, so processes racing on one credential write it once.
 */
export async function markCredentialUsed(db: Kysely<Database>, credentialId: string, now: Date, staleBefore: Date): Promise<void> {
  await db
    .updateTable('credentials')
    .set({ last_used_at: now })
    .where('id', '=', credentialId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
    .execute();
}
