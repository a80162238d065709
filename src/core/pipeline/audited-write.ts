/**
 * The audit event of a write that went through the pipeline (DESIGN §10): written in the write's
 * transaction, after its handler succeeded, so it commits or rolls back with the change (and an
 * idempotent replay, which runs no handler, writes none).
 *
 * - actor: the principal: a key or assistant token by its credential id and name, a signed-in person
 *   by their user id and name;
 * - action: the operation's name;
 * - object: what the write acted on, by one rule (unless the operation declares `auditObject`):
 *   1. the path's last id parameter (`/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/retry`
 *      acts on the delivery), its kind the resource its input declares (`x-resource`: webhook_delivery);
 *   2. else the output's first top-level `*_id` field holding an id (create_video's `video_id`,
 *      create_api_key's `key_id`), its kind the resource of that name: the resource named exactly so
 *      (`video_id` → video) or ending so (`key_id` → api_key, `endpoint_id` → webhook_endpoint), else the
 *      name itself (`workspace_id` → workspace);
 *   3. else none (rename_tag, update_channel).
 * - origin: where the transport says the call came from;
 * - details: the request id only. Nothing of the input or output is copied: no personal data, no secret.
 */
import type { AuditEntry } from '../../domains/audit/index.ts';
import { type AnyOperation, pathParams } from '../operation.ts';
import { resourceOf } from '../resource-ids.ts';
import { RESOURCES } from '../schemas.ts';
import { isUuid } from '../values/real-instants.ts';
import type { CallOrigin } from './pipeline.ts';
import type { Principal } from './principal.ts';

export function auditedWrite(
  operation: AnyOperation,
  call: { principal: Principal; origin: CallOrigin | undefined; requestId: string; at: Date },
  input: Record<string, unknown>,
  output: unknown,
): AuditEntry {
  const { principal } = call;
  return {
    workspaceId: principal.workspaceId,
    at: call.at,
    actor: {
      kind: principal.kind,
      id: principal.kind === 'user' ? principal.userId : principal.credentialId,
      name: principal.name,
    },
    action: operation.name,
    object: operation.auditObject ? operation.auditObject(input, output) : objectOf(operation, input, output),
    origin: call.origin ?? null,
    details: { request_id: call.requestId },
  };
}

/** The object a write acted on, by the rule above. */
export function objectOf(operation: AnyOperation, input: Record<string, unknown>, output: unknown): AuditEntry['object'] {
  const param = pathParams(operation.path).at(-1);
  const fromPath = param === undefined ? undefined : input[param];
  if (param !== undefined && typeof fromPath === 'string') {
    return { kind: resourceOf(operation.input.properties?.[param]) ?? kindNamed(param), id: fromPath };
  }
  if (typeof output !== 'object' || output === null) return null;
  for (const name of Object.keys(operation.output.properties ?? {})) {
    const value = (output as Record<string, unknown>)[name];
    if (name.endsWith('_id') && typeof value === 'string' && isUuid(value)) return { kind: kindNamed(name), id: value };
  }
  return null;
}

/** `video_id` → video, `key_id` → api_key, `endpoint_id` → webhook_endpoint, `workspace_id` → workspace. */
function kindNamed(field: string): string {
  const noun = field.replace(/_id$/, '');
  return RESOURCES.find((resource) => resource === noun) ?? RESOURCES.find((resource) => resource.endsWith(`_${noun}`)) ?? noun;
}
