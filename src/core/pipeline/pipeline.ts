/**
 * The one path every operation call takes, whichever transport it came by:
 * authenticate → scope → entitlement → rate limit → validate → idempotency → handler → declared
 * output → masking of personal data → response.
 *
 * Writes run in one transaction together with their events, their audit event and their idempotency
 * record. The pipeline never throws: it answers an outcome (status, body, headers) that the transport writes out.
 */

import type { Kysely } from 'kysely';
import { transactionRetryingConflicts } from '../../db/conflict-retry.ts';
import type { Database } from '../../db/tables/index.ts';
import { recordAuditEvent } from '../../domains/audit/index.ts';
import { createMediaLinks } from '../../media/media-links.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import type { Emit, Log, OperationContext, OutboundSettings } from '../context.ts';
import { AppError, errorBody, type FieldProblem } from '../errors.ts';
import { createCursorCodec } from '../lists/pagination.ts';
import { type AnyOperation, successStatus } from '../operation.ts';
import { hasPersonalData, maskPersonalData } from '../pii.ts';
import { PLANS } from '../plans.ts';
import { createSealedBox, type SealedBox } from '../secrets/sealed-box.ts';
import { auditedWrite } from './audited-write.ts';
import { credentialUseRecorder } from './credential-use.ts';
import { declaredOutput } from './declared-output.ts';
import {
  claimKey,
  completeKey,
  fingerprintOf,
  type IdempotencyScope,
  parseIdempotencyKey,
  releaseKey,
  STORED_RESPONSES_PURPOSE,
} from './idempotency.ts';
import { authenticate, type FindCredential, type Principal } from './principal.ts';
import { type RateLimiter, rateLimitHeaders } from './rate-limit.ts';
import { isLockWait, outageError } from './unavailable.ts';
import { type InputSource, inputProblems } from './validation.ts';

export interface PipelineDeps {
  db: Kysely<Database>;
  /** The events outbox (src/db/outbox.ts): an Emit for one change, recorded in its transaction. */
  outbox(db: Kysely<Database>, workspaceId: string, at: Date): Emit;
  findCredential: FindCredential;
  rateLimiter: RateLimiter;
  /** Signs pagination cursors and upload URLs, and seals stored responses. */
  secret: string;
  /** The service's public origin, for the URLs handlers hand out. */
  publicUrl: string;
  maxUploadBytes: number;
  /** Where uploaded and imported files are kept; handlers may only ask whether a file is there. */
  mediaStore: MediaStore;
  /** Requests per minute for every credential, overriding the plans (CUEPOINT_RATE_LIMIT). */
  rateLimitOverride?: number;
  log: Log;
  clock?: () => Date;
  /** Outbound requests handlers make (test deliveries to webhook endpoints). Default: no private ranges, 15 s. */
  outbound?: OutboundSettings;
}

const DEFAULT_OUTBOUND: OutboundSettings = { allowPrivateNetworks: [], webhookTimeoutMs: 15_000 };

/** Where a call came from, for the audit log (core/pipeline/audited-write.ts). */
export interface CallOrigin {
  transport: 'rest' | 'mcp' | 'dashboard' | 'cli';
  /** The client's address as the transport established it (trusted proxies considered). */
  address?: string;
  userAgent?: string;
}

export interface OperationCall {
  authorization: string | undefined;
  /**
   * A caller the transport has already identified: a person signed in to the dashboard (their session
   * was checked there), or the credential /mcp authenticated for this request (bound tokens included,
   * which /v1's check refuses). `authorization` is then not read.
   */
  principal?: Principal;
  origin?: CallOrigin;
  input: unknown;
  /** Problems the transport found while assembling the input, reported with the validation errors. */
  inputProblems?: FieldProblem[];
  source: InputSource;
  idempotencyKey?: string;
  requestId: string;
}

export interface OperationOutcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type Pipeline = (operation: AnyOperation, call: OperationCall) => Promise<OperationOutcome>;

export function createPipeline(deps: PipelineDeps): Pipeline {
  const clock = deps.clock ?? (() => new Date());
  const box = createSealedBox(deps.secret, STORED_RESPONSES_PURPOSE);
  const { links } = createMediaLinks(deps.secret, deps.publicUrl);
  const limits = { maxUploadBytes: deps.maxUploadBytes };
  const outbound = deps.outbound ?? DEFAULT_OUTBOUND;
  const recordUse = credentialUseRecorder(deps.db, deps.log);
  const boxes = new Map<string, SealedBox>();
  const sealedBox = (purpose: string) => {
    let sealing = boxes.get(purpose);
    if (!sealing) {
      sealing = createSealedBox(deps.secret, purpose);
      boxes.set(purpose, sealing);
    }
    return sealing;
  };
  const cursorCodecs = new Map<string, ReturnType<typeof createCursorCodec>>();
  const cursorsFor = (name: string) => {
    let codec = cursorCodecs.get(name);
    if (!codec) {
      codec = createCursorCodec(deps.secret, name);
      cursorCodecs.set(name, codec);
    }
    return codec;
  };
  const personal = new Map<string, boolean>();
  const hasPersonalOutput = (operation: AnyOperation) => {
    let found = personal.get(operation.name);
    if (found === undefined) {
      found = hasPersonalData(operation.output);
      personal.set(operation.name, found);
    }
    return found;
  };

  return async function run(operation, call) {
    const headers: Record<string, string> = {};
    try {
      const principal = call.principal ?? (await authenticate(deps.findCredential, call.authorization, clock(), recordUse));
      checkAccess(operation, principal);
      const limit = deps.rateLimitOverride ?? PLANS[principal.plan].requestsPerMinute;
      const decision = await deps.rateLimiter.consume(principal.credentialId, limit);
      Object.assign(headers, rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new AppError(
          'rate_limited',
          `Over the limit of ${limit} requests per minute for this credential. Retry after ${decision.resetSeconds} s.`,
          {
            limit,
            retry_after_seconds: decision.resetSeconds,
          },
        );
      }
      const input = await validInput(deps.db, operation, principal.workspaceId, call);
      // Idempotency keys belong to credentials; the dashboard's forms are guarded by their CSRF tokens instead.
      const key = operation.write && principal.kind !== 'user' ? parseIdempotencyKey(call.idempotencyKey) : undefined;
      const ctx = (db: Kysely<Database>, now: Date): OperationContext => ({
        workspaceId: principal.workspaceId,
        principal,
        db,
        now,
        requestId: call.requestId,
        requestsPerMinute: limit,
        log: deps.log,
        cursors: cursorsFor(operation.name),
        links,
        media: deps.mediaStore,
        limits,
        outbound,
        sealedBox,
        emit: deps.outbox(db, principal.workspaceId, now),
      });
      // Only what the output schema declares leaves, by either transport, and personal fields are
      // masked, before anything is sent and before a write's response is stored for replays.
      const masks = principal.maskPii && hasPersonalOutput(operation);
      const declared = declaredOutput(operation.output);
      // A write's audit event is written with `db`, its transaction: it commits or rolls back with the
      // change. (A write with `transactional: false` records it once the handler succeeded.)
      const handle = async (db: Kysely<Database>, now: Date) => {
        const body = declared(await operation.handler(ctx(db, now), input));
        if (operation.write) {
          const by = { principal, origin: call.origin, requestId: call.requestId, at: now };
          await recordAuditEvent(db, auditedWrite(operation, by, input, body));
        }
        return masks ? maskPersonalData(operation.output, body) : body;
      };
      if (!operation.write) {
        const body = await handle(deps.db, clock());
        return { status: successStatus(operation, body), body, headers };
      }
      const scope = key
        ? {
            credentialId: principal.credentialId,
            workspaceId: principal.workspaceId,
            key,
            operation: operation.name,
            fingerprint: fingerprintOf(operation.name, input),
          }
        : undefined;
      return await runWrite(deps.db, box, operation, scope, headers, clock, call.requestId, handle);
    } catch (error) {
      return failure(error, call.requestId, headers, deps.log, operation.name);
    }
  };
}

/**
 * The input, valid, or `invalid_request` listing every problem: those of its shape and, when the
 * shape is wrong and the operation can see more in the database, those too (Operation.databaseProblems).
 */
async function validInput(
  db: Kysely<Database>,
  operation: AnyOperation,
  workspaceId: string,
  call: OperationCall,
): Promise<Record<string, unknown>> {
  const problems = inputProblems(operation.input, call.input, call.source, call.inputProblems);
  if (problems.length === 0) return call.input as Record<string, unknown>;
  if (operation.databaseProblems) {
    const reported = new Set(problems.map((problem) => problem.field));
    const more = await operation.databaseProblems(db, workspaceId, call.input);
    problems.push(...more.filter((problem) => !reported.has(problem.field)));
  }
  throw AppError.invalid(problems);
}

function checkAccess(operation: AnyOperation, principal: Principal): void {
  if (operation.dashboardOnly && principal.kind !== 'user') {
    throw new AppError('forbidden', `${operation.name} is an action of people signed in to the dashboard; no key or token may take it.`);
  }
  if (!principal.scopes.has(operation.scope)) {
    throw new AppError('forbidden', `This credential lacks the scope ${operation.scope}, which ${operation.name} needs.`, {
      required_scope: operation.scope,
    });
  }
  if (operation.entitlement && !PLANS[principal.plan].entitlements.has(operation.entitlement)) {
    throw new AppError(
      'plan_limit',
      `The ${principal.plan} plan does not include ${operation.entitlement}. Upgrade the workspace plan to use ${operation.name}.`,
      {
        entitlement: operation.entitlement,
        plan: principal.plan,
      },
    );
  }
}

async function runWrite(
  db: Kysely<Database>,
  box: SealedBox,
  operation: AnyOperation,
  scope: IdempotencyScope | undefined,
  headers: Record<string, string>,
  clock: () => Date,
  requestId: string,
  handler: (trx: Kysely<Database>, now: Date) => Promise<unknown>,
): Promise<OperationOutcome> {
  if (scope) {
    const claim = await claimKey(db, scope, clock(), box);
    if (claim.kind === 'replay') {
      return { status: claim.status, body: claim.body, headers: { ...headers, 'Idempotency-Replayed': 'true' } };
    }
  }
  const run = async (trx: Kysely<Database>) => {
    const result = await handler(trx, clock());
    if (scope) await completeKey(trx, scope, successStatus(operation, result), result, box);
    return result;
  };
  try {
    // A transaction PostgreSQL rolled back for a deadlock or serialization failure runs again: its
    // writes were undone, and handlers have no effect outside the database (Operation.transactional).
    const body = operation.transactional === false ? await run(db) : await transactionRetryingConflicts(db, run);
    return { status: successStatus(operation, body), body, headers };
  } catch (error) {
    if (scope) {
      // A business error is the request's answer and is kept; anything else frees the key for a retry.
      if (error instanceof AppError && error.status < 500) {
        await completeKey(db, scope, error.status, errorBody(error, requestId), box).catch(() => releaseKey(db, scope));
      } else {
        await releaseKey(db, scope).catch(() => {});
      }
    }
    throw error;
  }
}

function failure(error: unknown, requestId: string, headers: Record<string, string>, log: Log, operation: string): OperationOutcome {
  let appError: AppError;
  if (error instanceof AppError) {
    appError = error;
  } else {
    const outage = outageError(error);
    if (outage) {
      log.warn({ err: error, requestId, operation }, isLockWait(error) ? 'lock wait timed out' : 'database unavailable');
      appError = outage;
    } else {
      log.error({ err: error, requestId, operation }, 'operation failed');
      appError = new AppError(
        'internal',
        `Something went wrong on our side. It has been logged under request id ${requestId}; retrying once is safe.`,
      );
    }
  }
  return { status: appError.status, body: errorBody(appError, requestId), headers: { ...headers, ...appError.headers } };
}
