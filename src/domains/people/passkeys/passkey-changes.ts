/**
 * Renaming and removing a person's passkeys, each with its audit event in one transaction. Removing a
 * passkey ends nothing else: sessions it started stay (the person removing it is usually in one), and
 * it simply cannot sign in again.
 */
import type { Kysely } from 'kysely';
import type { Database, PasskeyRow, UserRow } from '../../../db/tables/index.ts';
import { recordPersonEvent } from '../person-events.ts';
import { cleanPasskeyName, passkeyNameProblem } from './passkey-names.ts';
import { PasskeyRefused } from './passkey-registration.ts';
import { removePasskey, renamePasskey } from './passkeys.queries.ts';

interface PasskeyChange {
  user: Pick<UserRow, 'id' | 'name'>;
  passkeyId: string;
  origin: { address?: string; userAgent?: string };
  now: Date;
}

const NOT_YOURS = 'You have no such passkey. It may have been removed already.';

export async function renameUserPasskey(db: Kysely<Database>, change: PasskeyChange & { name: string }): Promise<PasskeyRow> {
  const name = cleanPasskeyName(change.name);
  const problem = passkeyNameProblem(name);
  if (problem) throw new PasskeyRefused('invalid_request', problem);
  return db.transaction().execute(async (trx) => {
    const passkey = await renamePasskey(trx, change.user.id, change.passkeyId, name);
    if (!passkey) throw new PasskeyRefused('not_found', NOT_YOURS);
    await recordPersonEvent(trx, {
      user: change.user,
      action: 'passkey.renamed',
      origin: change.origin,
      at: change.now,
      details: { passkey_id: passkey.id },
    });
    return passkey;
  });
}

export async function removeUserPasskey(db: Kysely<Database>, change: PasskeyChange): Promise<PasskeyRow> {
  return db.transaction().execute(async (trx) => {
    const passkey = await removePasskey(trx, change.user.id, change.passkeyId);
    if (!passkey) throw new PasskeyRefused('not_found', NOT_YOURS);
    await recordPersonEvent(trx, {
      user: change.user,
      action: 'passkey.removed',
      origin: change.origin,
      at: change.now,
      details: { passkey_id: passkey.id },
    });
    return passkey;
  });
}
