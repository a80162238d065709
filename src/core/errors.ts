/**
 * The one error taxonomy both transports speak. Handlers throw `AppError`; the pipeline turns it into
 * the body `{ error: { code, message, request_id, details? } }` with the status below, and the MCP
 * adapter decides from `callerCanFix` whether it is a tool result or a protocol error.
 */

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_limit: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  // The public media routes' conditional and Range requests (src/transports/public/media/media-file-reply.ts).
  precondition_failed: 412,
  payload_too_large: 413,
  headers_too_large: 431,
  range_not_satisfiable: 416,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Codes an assistant can act on by changing its call; the rest are transport-level failures. */
export const CALLER_CAN_FIX: ReadonlySet<ErrorCode> = new Set([
  'invalid_request',
  'not_found',
  'forbidden',
  'plan_limit',
  'conflict',
  'rate_limited',
  'payload_too_large',
]);

/** The most problems one `invalid_request` answer lists; beyond them it says how many more there are. */
export const MAX_LISTED_PROBLEMS = 20;

export interface FieldProblem {
  field: string;
  problem: string;
  /**
   * Set when the problem is an id that names nothing in the caller's workspace (unknownId): on an input
   * whose shape is right the answer is then not_found, as for an id in the path (AppError.refusing).
   */
  unknownId?: { what: string; id: string };
}

/**
 * The problem of a well-formed id in a query or body that names no `what` of the caller's workspace.
 * It reads the same whoever owns the id, so it reveals nothing of other workspaces.
 */
export function unknownId(field: string, what: string, id: string): FieldProblem {
  return { field, problem: `no ${what} in this workspace has the id ${id}`, unknownId: { what, id } };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /**
   * One error that lists the problems found, in the message and as `details.errors`: all of them up
   * to MAX_LISTED_PROBLEMS, then only how many more (`details.more_errors`), so the answer stays small
   * whatever was sent. A problem is a clause inside a sentence, so its own closing full stop is dropped.
   */
  static invalid(problems: FieldProblem[]): AppError {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => ({ field: p.field, problem: p.problem.replace(/[.\s]+$/, '') }));
    const more = problems.length - listed.length;
    const list = listed.map((p) => (p.field ? `${p.field}: ${p.problem}` : p.problem)).join('; ');
    if (more === 0) {
      const noun = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
      return new AppError('invalid_request', `The request has ${noun}: ${list}.`, { errors: listed });
    }
    const count = problems.length.toLocaleString('en-US');
    return new AppError(
      'invalid_request',
      `The request has ${count} problems. The first ${listed.length}: ${list}; and ${more.toLocaleString('en-US')} more.`,
      { errors: listed, more_errors: more },
    );
  }

  static notFound(what: string, id: string): AppError {
    return new AppError('not_found', `No ${what} with id ${id} in this workspace.`);
  }

  /**
   * The answer to a well-shaped input with problems only the database could see: not_found when an id
   * names nothing in this workspace (SPEC §1: wherever it is sent), whatever else is wrong, since the
   * rest cannot be judged against a thing that is not there; invalid_request listing them otherwise.
   * A not_found names every unknown id, and says in `details.errors` which field sent each.
   */
  static refusing(problems: FieldProblem[]): AppError {
    const unknown = problems.filter((problem) => problem.unknownId);
    if (unknown.length === 0) return AppError.invalid(problems);
    const named = [...new Set(unknown.map(({ unknownId: missing }) => `no ${missing?.what} with id ${missing?.id}`))];
    const message = `${named.join('; ')} in this workspace.`;
    return new AppError('not_found', message.charAt(0).toUpperCase() + message.slice(1), {
      errors: unknown.slice(0, MAX_LISTED_PROBLEMS).map(({ field, problem }) => ({ field, problem })),
    });
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string; details?: Record<string, unknown> };
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** The error body as JSON Schema, shared by the OpenAPI document and MCP tools' output schemas. */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string', description: 'For developers; lists every problem found.' },
        request_id: { type: 'string' },
        details: {
          type: 'object',
          description:
            '`errors: [{field, problem}]` for invalid_request (and for a not_found of ids sent in the query or body), `required_scope` for forbidden, `entitlement` for plan_limit.',
        },
      },
    },
  },
} as const;
