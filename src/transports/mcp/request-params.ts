/**
 * The params of the JSON-RPC requests we answer, read before anything trusts their shape, and their
 * problems as JSON-RPC "Invalid params" (-32602) in sentences: `{"name": "list_videos", "arguments":
 * []}` is told that arguments must be an object, where the SDK answered -32603 "Internal error" with
 * zod's issue list (it parses params with its own schema before our handler runs, and a parse
 * failure is not an McpError). Every problem of a call is listed at once, as the API does; `data`
 * holds them by field too.
 */

export interface ParamsProblem {
  field: string;
  problem: string;
}

/**
 * A -32602 error as the SDK sends it on: its code, data and message. Not an McpError, whose message
 * would read "MCP error -32602: …" before the sentence.
 */
export class InvalidParamsError extends Error {
  // JSON-RPC's Invalid params (the SDK's ErrorCode.InvalidParams), written out so that POST /mcp can
  // refuse a malformed envelope without loading the SDK.
  readonly code = -32602;
  readonly data: { errors: ParamsProblem[] };

  constructor(method: string, problems: ParamsProblem[]) {
    const listed = problems.map((p) => `${p.field} ${p.problem}`).join('; ');
    super(`Invalid params for ${method}: ${listed}.`);
    this.name = 'InvalidParamsError';
    this.data = { errors: problems };
  }
}

export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tools/call request's params, or InvalidParamsError naming everything wrong with them. */
export function toolCallParams(params: unknown): ToolCallParams {
  if (params === undefined) {
    throw new InvalidParamsError('tools/call', [
      {
        field: 'params',
        problem: 'are required: the name of the tool and its arguments, such as {"name": "list_videos", "arguments": {"limit": 10}}',
      },
    ]);
  }
  const problems = envelopeProblems(params);
  if (!isObject(params)) throw new InvalidParamsError('tools/call', problems);
  const { name, arguments: args } = params;
  if (name === undefined) {
    problems.push({ field: 'params.name', problem: 'is required: the tool to call, as tools/list names it (such as list_videos)' });
  } else if (typeof name !== 'string') {
    problems.push({
      field: 'params.name',
      problem: `must be a string, the tool to call as tools/list names it (such as list_videos); it is ${kindOf(name)}`,
    });
  }
  if (args !== undefined && !isObject(args)) {
    problems.push({
      field: 'params.arguments',
      problem: `must be an object holding the tool's arguments by name, as its inputSchema describes, or be left out; it is ${kindOf(args)}`,
    });
  }
  if (problems.length > 0) throw new InvalidParamsError('tools/call', problems);
  return { name: name as string, arguments: (args ?? {}) as Record<string, unknown> };
}

/** A tools/list request's params (the cursor is the only one, and our list has one page), or InvalidParamsError. */
export function toolListParams(params: unknown): { cursor?: string } {
  if (params === undefined) return {};
  const problems = envelopeProblems(params);
  if (isObject(params) && params.cursor !== undefined && typeof params.cursor !== 'string') {
    problems.push({
      field: 'params.cursor',
      problem: `must be a string, the nextCursor of the page before, or be left out; it is ${kindOf(params.cursor)}`,
    });
  }
  if (problems.length > 0) throw new InvalidParamsError('tools/list', problems);
  return isObject(params) && typeof params.cursor === 'string' ? { cursor: params.cursor } : {};
}

/**
 * What is wrong with any request's params as such: MCP takes them by name, as an object, with an
 * optional `_meta` object. The HTTP endpoint checks this before the SDK's transport, which refuses
 * such a message as a "Parse error" though its JSON parsed.
 */
export function envelopeProblems(params: unknown): ParamsProblem[] {
  if (params === undefined) return [];
  if (!isObject(params)) {
    return [{ field: 'params', problem: `must be an object, the parameters by name, or be left out; it is ${kindOf(params)}` }];
  }
  if (params._meta !== undefined && !isObject(params._meta)) {
    return [{ field: 'params._meta', problem: `must be an object, or be left out; it is ${kindOf(params._meta)}` }];
  }
  return [];
}

/**
 * The -32602 answer to one JSON-RPC request (an object with a method and an id) whose params are not
 * an object by name, or undefined for anything else, which the SDK's transport then reads as usual.
 */
export function envelopeRefusal(message: unknown): { jsonrpc: '2.0'; id: string | number; error: object } | undefined {
  if (!isObject(message) || typeof message.method !== 'string') return undefined;
  const { id } = message;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const problems = envelopeProblems(message.params);
  if (problems.length === 0) return undefined;
  const method = message.method.length <= 100 ? message.method : 'this request';
  const error = new InvalidParamsError(method, problems);
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
