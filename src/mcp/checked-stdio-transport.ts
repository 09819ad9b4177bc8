import type { Readable, Writable } from 'node:stream';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ProtocolErrorCode,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import {
  classifyLine,
  classifyValue,
  errorAnswer,
  paramsAnswer,
  type LineVerdict,
} from './json-rpc-line.js';
import { LineSplitter } from './line-splitter.js';
import { PendingBatches } from './pending-batches.js';

/** The longest message read: the SDK's own default (`STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Most messages in one batch, as the SDK's HTTP transport allows. */
const MAX_BATCH_LENGTH = 100;
/** The protocol revisions that have JSON-RPC batches: 2025-03-26 added them, 2025-06-18 removed them. */
const REVISIONS_WITH_BATCHES = new Set(['2025-03-26']);

export interface CheckedStdioOptions {
  /** Longest line read, in bytes; a longer one is answered with an error and dropped. */
  maxMessageBytes?: number | undefined;
}

/**
 * The SDK's stdio server transport, reading lines as JSON-RPC 2.0 says a server must: text that is
 * not JSON is answered with -32700 Parse error, JSON that is not a valid request with -32600
 * Invalid Request (`id: null` when its id cannot be read), a request whose params MCP rejects with
 * -32602, and a batch as the negotiated protocol revision says. The SDK's reader is replaced, not
 * forked: `_ondata` is the one entry point its `start()` attaches to the input stream.
 */
export class CheckedStdioTransport extends StdioServerTransport {
  private readonly lines: LineSplitter;
  private readonly batches = new PendingBatches();
  private protocolVersion: string | undefined;

  constructor(input: Readable, output: Writable, options: CheckedStdioOptions = {}) {
    super(input, output);
    this.lines = new LineSplitter(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  override _ondata = (chunk: Buffer): void => {
    for (const event of this.lines.push(chunk)) {
      // One line's failure is reported and the next is still read, as the SDK's reader does.
      try {
        if (event.kind === 'line') this.receive(classifyLine(event.text));
        else
          this.reject(
            errorAnswer(
              null,
              ProtocolErrorCode.InvalidRequest,
              `Invalid Request: a message longer than ${this.lines.maxLineBytes} bytes was dropped`,
            ),
          );
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };

  /** Called by the server once `initialize` has settled the protocol revision. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    if (
      'id' in message &&
      message.id !== undefined &&
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
    ) {
      const batch = this.batches.take(message.id, message);
      if (batch === 'held') return;
      if (batch !== 'not-batched') return this.write(batch);
    }
    return super.send(message);
  }

  override async close(): Promise<void> {
    this.lines.clear();
    this.batches.clear();
    await super.close();
  }

  private receive(verdict: LineVerdict): void {
    if (verdict.kind === 'batch') return this.receiveBatch(verdict.elements);
    if (verdict.kind === 'answer') return this.reject(verdict.answer);
    if (verdict.kind === 'ignore') {
      if (verdict.reason) this.onerror?.(new Error(`left unanswered: ${verdict.reason}`));
      return;
    }
    const refused = paramsAnswer(verdict.message);
    if (refused) return this.reject(refused);
    this.deliver(verdict.message);
  }

  private deliver(message: JSONRPCMessage): void {
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') {
        const answers = this.batches.cancel(id);
        if (answers?.length) void this.write(answers);
      }
    }
    this.onmessage?.(message);
  }

  private receiveBatch(elements: unknown[]): void {
    const invalid = (message: string) =>
      this.reject(
        errorAnswer(null, ProtocolErrorCode.InvalidRequest, `Invalid Request: ${message}`),
      );
    if (!REVISIONS_WITH_BATCHES.has(this.protocolVersion ?? ''))
      return invalid(
        `JSON-RPC batches are not part of MCP ${this.protocolVersion ? `protocol revision ${this.protocolVersion}` : 'before initialization'}; send one message per line`,
      );
    if (elements.length === 0) return invalid('an empty batch');
    if (elements.length > MAX_BATCH_LENGTH)
      return invalid(`a batch must not hold more than ${MAX_BATCH_LENGTH} messages`);
    const answers: unknown[] = [];
    const requestIds: (string | number)[] = [];
    const messages: JSONRPCMessage[] = [];
    for (const element of elements) {
      const verdict = classifyValue(element);
      if (verdict.kind === 'answer') answers.push(verdict.answer);
      if (verdict.kind !== 'message') continue;
      const message = verdict.message;
      if (isJSONRPCRequest(message)) {
        const problem =
          message.method === 'initialize'
            ? '`initialize` must not be part of a batch'
            : this.batches.has(message.id) || requestIds.includes(message.id)
              ? `id ${JSON.stringify(message.id)} is already in use`
              : undefined;
        if (problem) {
          answers.push(
            errorAnswer(
              message.id,
              ProtocolErrorCode.InvalidRequest,
              `Invalid Request: ${problem}`,
            ),
          );
          continue;
        }
        const refused = paramsAnswer(message);
        if (refused) {
          answers.push(refused);
          continue;
        }
        requestIds.push(message.id);
      }
      messages.push(message);
    }
    const ready = this.batches.open(requestIds, answers);
    if (ready?.length) void this.write(ready);
    for (const message of messages) this.deliver(message);
  }

  private reject(answer: unknown): void {
    this.onerror?.(new Error(`answered a malformed message: ${JSON.stringify(answer)}`));
    void this.write(answer);
  }

  /** Writes any JSON value as one line: error answers with `id: null`, and batch arrays. */
  private async write(value: unknown): Promise<void> {
    try {
      // The SDK writes `JSON.stringify(message)` and a line break, whatever the message is.
      await super.send(value as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
