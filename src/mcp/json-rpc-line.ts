import {
  isJSONRPCRequest,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  specTypeSchemas,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';

/**
 * What one line from an MCP client is, as JSON-RPC 2.0 reads it (jsonrpc.org/specification):
 * a message for the server, a batch, something to answer with an error, or something to leave
 * unanswered. The SDK's stdio reader drops every line its message schema rejects without a word,
 * so a client that sent a malformed request waits for an answer that never comes.
 */

/** An error response; `id` is null when the request's id could not be read (JSON-RPC 2.0 §5). */
export interface ErrorAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export type LineVerdict =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'batch'; elements: unknown[] }
  | { kind: 'answer'; answer: ErrorAnswer }
  /**
   * Never answered: a notification, or something shaped like a response (answering either could
   * loop). A reason is logged; a blank line has none.
   */
  | { kind: 'ignore'; reason?: string };

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

export function errorAnswer(
  id: string | number | null,
  code: number,
  message: string,
): ErrorAnswer {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An id that can be echoed back: a string or a finite number (JSON-RPC 2.0 §4), not a whole
 * number past 2^53, which reads as another than the client wrote.
 */
function readableId(value: Record<string, unknown>): string | number | null {
  const id = value.id;
  if (typeof id === 'string') return id;
  const exact = Number.isInteger(id) ? Number.isSafeInteger(id) : Number.isFinite(id);
  return typeof id === 'number' && exact ? id : null;
}

/** Why a JSON-RPC request or notification is not one, or undefined when it is. */
function envelopeProblem(value: Record<string, unknown>): string | undefined {
  if (value.jsonrpc !== '2.0') return '`jsonrpc` must be "2.0"';
  if (typeof value.method !== 'string') return '`method` must be a string';
  if ('id' in value && readableId(value) === null) return '`id` must be a string or a number';
  // MCP requires integer ids (its RequestId), where JSON-RPC only discourages fractions.
  if (typeof value.id === 'number' && !Number.isInteger(value.id))
    return '`id` must be a string or an integer';
  if ('params' in value && typeof value.params !== 'object')
    return '`params` must be an object or an array';
  if (value.params === null) return '`params` must be an object or an array';
  const extra = Object.keys(value).find((key) => !ENVELOPE_KEYS.has(key));
  return extra === undefined ? undefined : `unknown member \`${extra}\``;
}

/**
 * The requests this server answers, whose params the SDK checks inside its handler, where a
 * failure comes back as an internal error (-32603) with a schema's dump: checked here first.
 */
const SERVED_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call']);

/**
 * The error answer to a request this server answers whose params are not what MCP defines
 * (-32602), or undefined.
 */
export function paramsAnswer(message: JSONRPCMessage): ErrorAnswer | undefined {
  if (!isJSONRPCRequest(message) || !SERVED_METHODS.has(message.method)) return undefined;
  const checked = specTypeSchemas.ClientRequest['~standard'].validate({
    method: message.method,
    ...(message.params !== undefined && { params: message.params }),
  });
  const [issue] = checked.issues ?? [];
  if (!issue) return undefined;
  const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
  return errorAnswer(
    message.id,
    ProtocolErrorCode.InvalidParams,
    `Invalid params: \`${path.join('.') || 'params'}\`: ${issue.message}`,
  );
}

/** One JSON value from the client: a whole line, or one element of a batch. */
export function classifyValue(value: unknown): LineVerdict {
  try {
    return { kind: 'message', message: parseJSONRPCMessage(value) };
  } catch {
    // Not an MCP message: say why below.
  }
  if (!isObject(value))
    return {
      kind: 'answer',
      answer: errorAnswer(
        null,
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: expected an object',
      ),
    };
  if (!('method' in value) && ('result' in value || 'error' in value))
    return { kind: 'ignore', reason: 'a malformed response' };
  const problem = envelopeProblem(value);
  if (problem === undefined) {
    // A valid JSON-RPC request or notification whose params MCP rejects.
    if (!('id' in value)) return { kind: 'ignore', reason: 'a notification with invalid params' };
    return {
      kind: 'answer',
      answer: errorAnswer(
        readableId(value),
        ProtocolErrorCode.InvalidParams,
        'Invalid params: `params` must be an object, with `_meta` as MCP defines it',
      ),
    };
  }
  return {
    kind: 'answer',
    answer: errorAnswer(
      readableId(value),
      ProtocolErrorCode.InvalidRequest,
      `Invalid Request: ${problem}`,
    ),
  };
}

/** One line from the client (without its line break). */
export function classifyLine(line: string): LineVerdict {
  // A blank line is framing, not a message.
  if (line.trim() === '') return { kind: 'ignore' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return {
      kind: 'answer',
      answer: errorAnswer(null, ProtocolErrorCode.ParseError, 'Parse error: the line is not JSON'),
    };
  }
  return Array.isArray(value) ? { kind: 'batch', elements: value } : classifyValue(value);
}
