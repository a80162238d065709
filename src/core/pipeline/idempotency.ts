/**
 * Idempotency keys (SPEC §4 "Idempotent writes", DESIGN §4), Stripe-style, stored in the database so
 * every process sees them.
 *
 * A key is claimed with one atomic insert: of any number of concurrent requests with the same key,
 * exactly one runs; the others get 409 while it runs and its stored response afterwards. The claim
 * is completed inside the operation's own transaction, so the change and its stored response commit
 * together. Business errors (4xx from the handler) are stored like successes; a 5xx releases the key
 * so that "retry 500 once" runs the request again. A claim left by a crashed process is taken over
 * after LOCK_TIMEOUT_MS (its transaction rolled back, so running again is safe). Stored responses are
 * sealed: one may carry a secret shown once, such as a new API key.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { textMentionsAny } from '../../db/text-mentions.ts';
import { AppError } from '../errors.ts';
import type { SealedBox } from '../secrets/sealed-box.ts';
import { canonicalJson } from '../values/canonical-json.ts';

export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** What stored responses are sealed for (createSealedBox): the pipeline seals them, an erasure opens them. */
export const STORED_RESPONSES_PURPOSE = 'idempotent responses';
const LOCK_TIMEOUT_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

export interface IdempotencyScope {
  credentialId: string;
  workspaceId: string;
  key: string;
  operation: string;
  fingerprint: string;
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/** The key as sent, bare or as a quoted structured-field string; invalid keys are a 400. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  if (key.length < 1 || key.length > 255 || !KEY_PATTERN.test(key)) {
    throw AppError.invalid([{ field: 'Idempotency-Key', problem: 'must be 1 to 255 printable ASCII characters' }]);
  }
  return key;
}

export function fingerprintOf(operation: string, input: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(canonicalJson(input)).digest('hex');
}

export async function claimKey(db: Kysely<Database>, scope: IdempotencyScope, now: Date, box: SealedBox): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        credential_id: scope.credentialId,
        key: scope.key,
        workspace_id: scope.workspaceId,
        operation: scope.operation,
        fingerprint: scope.fingerprint,
        state: 'running',
        locked_at: now,
        expires_at: new Date(now.getTime() + RETENTION_MS),
      })
      .onConflict((oc) => oc.columns(['credential_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed' };

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('credential_id', '=', scope.credentialId)
      .where('key', '=', scope.key)
      .executeTakeFirst();
    if (!existing) continue; // released or expired between our insert and select: try again
    if (existing.expires_at.getTime() <= now.getTime()) {
      await deleteIfUnchanged(db, scope, existing.locked_at);
      continue;
    }
    if (existing.operation !== scope.operation || existing.fingerprint !== scope.fingerprint) {
      throw new AppError('conflict', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.', {
        reason: 'idempotency_key_reused',
      });
    }
    if (existing.state === 'completed') {
      const body = existing.response_body === null ? null : box.open(existing.response_body);
      return { kind: 'replay', status: existing.response_status ?? 200, body };
    }
    if (now.getTime() - existing.locked_at.getTime() < LOCK_TIMEOUT_MS) {
      throw new AppError(
        'conflict',
        'A request with this Idempotency-Key is still running. Retry after it finishes to get its response.',
        { reason: 'idempotency_request_in_progress' },
        { 'Retry-After': '1' },
      );
    }
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ locked_at: now })
      .where('credential_id', '=', scope.credentialId)
      .where('key', '=', scope.key)
      .where('locked_at', '=', existing.locked_at)
      .where('state', '=', 'running')
      .returning('key')
      .executeTakeFirst();
    if (taken) return { kind: 'claimed' };
  }
  throw new AppError('conflict', 'A request with this Idempotency-Key is still running.', {
    reason: 'idempotency_request_in_progress',
  });
}

export async function completeKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  status: number,
  body: unknown,
  box: SealedBox,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: status, response_body: box.seal(body) })
    .where('credential_id', '=', scope.credentialId)
    .where('key', '=', scope.key)
    .execute();
}

export async function releaseKey(db: Kysely<Database>, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('credential_id', '=', scope.credentialId)
    .where('key', '=', scope.key)
    .where('state', '=', 'running')
    .execute();
}

async function deleteIfUnchanged(db: Kysely<Database>, scope: IdempotencyScope, lockedAt: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('credential_id', '=', scope.credentialId)
    .where('key', '=', scope.key)
    .where('locked_at', '=', lockedAt)
    .execute();
}

/** Removes records past their 24 hours; run periodically by the server. */
export async function purgeExpiredKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Erasing a person (erase_lead): deletes the workspace's stored responses that mention any needle
 * (db/text-mentions.ts), opening each, since they are sealed and SQL cannot read them. A request sent
 * again with such a key then runs again instead of replaying. Records live 24 hours, so there are few.
 * Answers how many went.
 */
export async function forgetResponsesMentioning(
  db: Kysely<Database>,
  box: SealedBox,
  workspaceId: string,
  needles: readonly string[],
): Promise<number> {
  if (needles.length === 0) return 0;
  const stored = await db
    .selectFrom('idempotency_keys')
    .select(['credential_id', 'key', 'response_body'])
    .where('workspace_id', '=', workspaceId)
    .where('response_body', 'is not', null)
    .execute();
  let forgotten = 0;
  for (const record of stored) {
    if (!textMentionsAny(openedText(box, record.response_body as string), needles)) continue;
    await db.deleteFrom('idempotency_keys').where('credential_id', '=', record.credential_id).where('key', '=', record.key).execute();
    forgotten++;
  }
  return forgotten;
}

/** A stored response as JSON text; one that cannot be opened (another secret) as its sealed text, which mentions nobody. */
function openedText(box: SealedBox, sealed: string): string {
  try {
    return JSON.stringify(box.open(sealed));
  } catch {
    return sealed;
  }
}
