import { FLAGS, type FlagDefinition } from './flags.js';

const WIDTH = 100;
/** Where the help of each flag starts. */
const COLUMN = 26;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** A flag, then its help in a column; the help starts on the next line when the flag is long. */
function describeFlag({ flag, short, value, help }: FlagDefinition): string {
  const label = `  ${short ? `-${short}, ` : ''}--${flag}${value ? ` ${value}` : ''}`;
  const indent = ' '.repeat(COLUMN);
  const [first, ...rest] = wrap(help, WIDTH - COLUMN);
  const head =
    label.length <= COLUMN - 2 ? [`${label.padEnd(COLUMN)}${first}`] : [label, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)].join('\n');
}

const flagsOf = (group: FlagDefinition['group']) =>
  FLAGS.filter((definition) => definition.group === group)
    .map(describeFlag)
    .join('\n');

/** `--help`, written from the flag table so that it lists every flag the parser knows. */
export const USAGE = `Usage: iterative-retrieval [task] [options]
       iterative-retrieval hook [options]      Claude Code hook: context for subagents (stdin JSON)
       iterative-retrieval mcp [options]       MCP server on stdio with a retrieve_context tool
       iterative-retrieval index [options]     build or update --root's stored index now
       iterative-retrieval resident [options]  keep --root in memory for --resident runs

Finds the files a subagent needs for a task. The task comes from the argument, --task-file, or
standard input. Options after \`hook\` or \`mcp\` set the defaults of every run they make. A flag
given twice keeps its last value; --exclude and --include-secret-file add up.

Search:
${flagsOf('search')}

Claude judge (with ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL for a gateway or proxy):
${flagsOf('claude')}

Output:
${flagsOf('output')}

Exit codes: 0 context found, 1 nothing relevant found (or --timeout before any judgement),
2 invalid usage or environment setting, 3 unreadable root or task file, or unwritable output,
4 judge failure, 5 internal error, 130 interrupted. \`hook\` always exits 0. When the reader of
the output stops early (| head), the run ends quietly with its own exit code.
Environment: LOG_LEVEL (pino level for the JSON logs on stderr), ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL, RETRIEVAL_EVALUATOR_MODEL, RETRIEVAL_REFINER_MODEL, RETRIEVAL_CACHE_DIR
(a directory for stored indexes, or off), XDG_CACHE_HOME, RETRIEVAL_RESIDENT_IDLE_SECONDS (how
long a resident process waits for a run, default 600); for hook:
RETRIEVAL_HOOK_DELIVERY (prompt, the default | start | both), RETRIEVAL_HOOK_STORE.`;
