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
  conflict: 409,
  payload_too_large: 413,
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

export interface FieldProblem {
  field: string;
  problem: string;
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

  /** One error that lists every problem found, in the message and as `details.errors`. */
  static invalid(problems: FieldProblem[]): AppError {
    const list = problems.map((p) => (p.field ? `${p.field}: ${p.problem}` : p.problem)).join('; ');
    const noun = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    return new AppError('invalid_request', `The request has ${noun}: ${list}.`, { errors: problems });
  }

  static notFound(what: string, id: string): AppError {
    return new AppError('not_found', `No ${what} with id ${id} in this workspace.`);
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
          description: '`errors: [{field, problem}]` for invalid_request, `required_scope` for forbidden, `entitlement` for plan_limit.',
        },
      },
    },
  },
} as const;
