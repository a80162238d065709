/**
 * Records when a credential was last used (`credentials.last_used_at`, shown by list_api_keys).
 * authenticate() calls it only when the stored time is over a minute old, and the update itself
 * repeats that condition, so processes racing on one credential write it once. A failure here is
 * logged, never the request's failure: it is bookkeeping, not access control.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { markCredentialUsed } from '../../domains/api-keys/index.ts';
import type { Log } from '../context.ts';
import { LAST_USED_RESOLUTION_MS, type RecordCredentialUse } from './principal.ts';

export function credentialUseRecorder(db: Kysely<Database>, log: Log): RecordCredentialUse {
  return async (credentialId, now) => {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    try {
      await markCredentialUsed(db, credentialId, now, staleBefore);
    } catch (error) {
      log.warn({ err: error, credentialId }, 'could not record when a credential was last used');
    }
  };
}
