import { setMaxListeners } from 'node:events';
import { McpServer } from '@modelcontextprotocol/server';
import { contextPackSchema } from '../output/context-pack.js';
import { retrieveContext, type RetrievalServerSettings } from './retrieve-context.js';
import {
  RETRIEVE_CONTEXT_DESCRIPTION,
  RETRIEVE_CONTEXT_TOOL,
  retrieveContextInputSchema,
} from './tool-schema.js';

export type { RetrievalServerSettings } from './retrieve-context.js';

function instructionsFor(allowedRoots: readonly string[]): string {
  return [
    `Call ${RETRIEVE_CONTEXT_TOOL} with a coding task before reading unfamiliar code or delegating the task to a subagent:`,
    'it returns the files the task needs, most relevant first, with reasons, line ranges and excerpts.',
    `It searches only inside ${allowedRoots.join(', ')}.`,
  ].join(' ');
}

/**
 * The MCP server of iterative-retrieval: one tool, `retrieve_context`, whose structured result is
 * the context pack (`contextPackSchema`), trimmed to the settings' token budget.
 */
export function createRetrievalMcpServer(settings: RetrievalServerSettings): McpServer {
  // Each call in flight listens to the server's signal: past ten at once, Node would print a
  // warning of a leak (two lines that are not JSON) on stderr, where only logs go.
  if (settings.signal) setMaxListeners(0, settings.signal);
  const server = new McpServer(
    { name: 'iterative-retrieval', version: settings.version },
    { instructions: instructionsFor(settings.allowedRoots) },
  );
  server.registerTool(
    RETRIEVE_CONTEXT_TOOL,
    {
      title: 'Retrieve code context',
      description: RETRIEVE_CONTEXT_DESCRIPTION,
      inputSchema: retrieveContextInputSchema,
      outputSchema: contextPackSchema,
      // It only reads the repository under the allowed roots.
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, context) => retrieveContext(input, context, settings),
  );
  return server;
}
