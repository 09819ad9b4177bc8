/**
 * What the hook prints, modelled on `PreToolUseHookSpecificOutput` and
 * `SubagentStartHookSpecificOutput` in `@anthropic-ai/claude-agent-sdk` 0.3.330 (`sdk.d.ts`).
 */

/**
 * No `permissionDecision`: `allow` would also skip the user's permission prompt for the subagent
 * tool, which a context hook has no business deciding. Without a decision Claude Code applies
 * `updatedInput` and then runs its normal permission checks on it.
 */
export interface PreToolUseOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    /** Replaces the whole tool input: every original field, with `prompt` extended. */
    updatedInput: Record<string, unknown>;
  };
}

export interface SubagentStartOutput {
  hookSpecificOutput: {
    hookEventName: 'SubagentStart';
    /** Added to the subagent's context before its first turn. */
    additionalContext: string;
  };
}

export interface HookAnswer {
  /** Printed as JSON on stdout; none means the tool call or subagent goes ahead unchanged. */
  output?: PreToolUseOutput | SubagentStartOutput | undefined;
  /** One line for stderr: what was done, or why nothing was. */
  note: string;
}

export const noChange = (reason: string): HookAnswer => ({ note: `no change: ${reason}` });
