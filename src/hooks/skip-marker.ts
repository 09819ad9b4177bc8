/**
 * Put this anywhere in a subagent's prompt to launch it without retrieved context, for example
 * when the prompt already names every file the subagent needs. Matched case-insensitively.
 */
export const SKIP_MARKER = '[no-context]';

export function hasSkipMarker(prompt: string): boolean {
  return prompt.toLowerCase().includes(SKIP_MARKER);
}
