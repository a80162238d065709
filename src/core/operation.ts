/**
 * What an operation is: declared once, with everything both transports and the OpenAPI document need.
 * `defineOperation` only ties the handler's types to its schemas; it adds no behaviour.
 */
import type { Kysely } from 'kysely';
import type { Static, TObject } from 'typebox';
import type { Database } from '../db/tables/index.ts';
import type { OperationContext } from './context.ts';
import type { ErrorCode, FieldProblem } from './errors.ts';
import type { Entitlement } from './plans.ts';
import type { Scope } from './scopes.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation<I extends TObject = TObject, O extends TObject = TObject> {
  /** snake_case verb_noun: the OpenAPI operationId and the MCP tool name. */
  name: string;
  summary: string;
  /** Written for a developer and an assistant alike: what it does and when to use it. */
  description: string;
  method: HttpMethod;
  /** Relative to /v1, path ids in braces: `/videos/{video_id}`. */
  path: string;
  /** The OpenAPI tag that groups it. */
  group: string;
  scope: Scope;
  /**
   * Changes data: runs in a transaction and honours idempotency keys. The transaction runs again when
   * PostgreSQL rolls it back for a deadlock or serialization failure (src/db/conflict-retry.ts), so a
   * transactional handler must have no effect outside the database (reading is fine: a URL check, a
   * media file's size).
   */
  write: boolean;
  /**
   * false: a write that waits on the network (a test delivery to a webhook endpoint) runs without a
   * surrounding transaction, so no database connection is held while it waits; each of its
   * statements commits on its own. Default true for writes.
   */
  transactional?: boolean;
  /** Deletes or otherwise cannot be undone (MCP destructiveHint). */
  destructive?: boolean;
  /**
   * An action of people signed in to the dashboard only (DESIGN §10: deleting a video, erasing a lead,
   * revealing masked data): never a /v1 route, never an MCP tool, and refused by the pipeline for any
   * caller but a signed-in person. `method` and `path` still name it (docs, the audit log).
   */
  dashboardOnly?: boolean;
  entitlement?: Entitlement;
  /** Success status; 200 unless the operation creates something. */
  status?: 200 | 201;
  /**
   * For an operation that either creates or finds what it was sent (an upsert): whether this answer
   * created it, which makes the success status 201 instead of `status`. Decided from the output, so
   * the body says the same thing (MCP has no status) and a replay answers the status first sent.
   */
  createdWhen?: (output: Static<O>) => boolean;
  /**
   * For a write: what its audit event names as the object it acted on, when the rule
   * (core/pipeline/audited-write.ts: the path's last id, else the output's first `*_id`) would name it
   * wrongly, as for an id that is a video or a route depending on another field. null: no one object.
   */
  auditObject?: (input: Static<I>, output: Static<O>) => { kind: string; id: string } | null;
  /** Error codes the handler itself may raise, beyond the ones every operation can answer. */
  errors: ErrorCode[];
  input: I;
  /**
   * Problems only the database can show (a title no video has, a step of another route), looked for
   * when the input's shape is wrong too, so that one answer lists every problem. It gets the input as
   * sent, not validated: it must read only what is well-formed, and bound its own work. The handler
   * makes the same checks on a valid input, in its transaction; this is only for the answer.
   */
  databaseProblems?: (db: Kysely<Database>, workspaceId: string, input: unknown) => Promise<FieldProblem[]>;
  output: O;
  /** A valid input, shown in the docs and used by the catalog-wide tests. */
  example: Static<I>;
  handler(ctx: OperationContext, input: Static<I>): Promise<Static<O>>;
}

// biome-ignore lint/suspicious/noExplicitAny: the catalog holds operations of every input and output type
export type AnyOperation = Operation<any, any>;

export function defineOperation<I extends TObject, O extends TObject>(operation: Operation<I, O>): Operation<I, O> {
  return operation;
}

/** Every status a success of `operation` may answer with (OpenAPI and the REST serializer document each). */
export function successStatuses(operation: AnyOperation): (200 | 201)[] {
  const status = operation.status ?? 200;
  return operation.createdWhen && status !== 201 ? [status, 201] : [status];
}

/** The success status of one answer of `operation`. */
export function successStatus(operation: AnyOperation, output: unknown): 200 | 201 {
  return operation.createdWhen?.(output) ? 201 : (operation.status ?? 200);
}

/** Names of the path parameters: `/videos/{video_id}` → `['video_id']`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
}
