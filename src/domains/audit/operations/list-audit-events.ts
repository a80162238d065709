/**
 * list_audit_events: the workspace's audit log, newest first: every change through every surface,
 * who made it (key, assistant, person, command line, the service), what it acted on, when and from
 * where. Filters by actor id, action, object id and a time window. Reads only. The ids it filters by
 * are compared, never looked up (the log outlives what it names): another workspace's match nothing.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { AnyObjectId, describedPattern, Timestamp } from '../../../core/schemas.ts';
import { listAuditEvents as queryAuditEvents } from '../audit.queries.ts';
import { AuditEvent } from '../audit.schemas.ts';

export const listAuditEvents = defineOperation({
  name: 'list_audit_events',
  summary: 'List the audit log',
  description:
    'Lists what was changed in the workspace, newest first: every write through the API, MCP, the dashboard and the ' +
    'command line, bookings, cancellations and form captures on the public pages, payments recorded from Stripe, and ' +
    'people’s sign-ins. Each event says who acted (actor: kind, id, name), what (action: the operation name, and object: ' +
    'its kind and id), when (at) and from where (origin). Filter by actor (a key_id or user id), action, object_id and ' +
    'a from/to window. Events never hold a lead’s email, name or phone.',
  method: 'GET',
  path: '/audit-events',
  group: 'Audit log',
  scope: 'workspace:manage',
  write: false,
  errors: [],
  input: Type.Object(
    {
      actor: Type.Optional(Type.String({ format: 'uuid', description: 'Only events by this actor: a key’s key_id, or a user’s id.' })),
      action: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          ...describedPattern('^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$', 'must be an action name, such as create_video or sign_in.failed'),
          description: 'Only events of this action: an operation name (delete_api_key) or a people action (sign_in.failed).',
        }),
      ),
      object_id: Type.Optional(AnyObjectId('Only events that acted on this object (a video, a lead, a key, …), whatever its kind.')),
      from: Type.Optional(Timestamp('Events at or after this instant.')),
      to: Type.Optional(Timestamp('Events before this instant (excluded).')),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('audit_events', AuditEvent),
  example: { action: 'delete_api_key', limit: 20 },
  async handler(ctx, input) {
    const { limit: _limit, cursor: _cursor, ...filters } = input;
    const from = input.from ? new Date(input.from) : undefined;
    const to = input.to ? new Date(input.to) : undefined;
    if (from && to && from.getTime() > to.getTime()) {
      throw AppError.invalid([{ field: 'from', problem: `must be at or before to (${input.to})` }]);
    }
    const page = await paginate(ctx.cursors, input, filters, (request) =>
      queryAuditEvents(
        ctx.db,
        ctx.workspaceId,
        { actorId: input.actor, action: input.action, objectId: input.object_id, from, to },
        request,
      ),
    );
    return { audit_events: page.items, pagination: page.pagination };
  },
});
