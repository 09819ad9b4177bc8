import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** One benchmark task: an issue, the repository and commit it was filed against, and the files its fix changed. */
export const benchTaskSchema = z.object({
  instance_id: z.string().min(1),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/),
  problem_statement: z.string().min(1),
  gold_files: z.array(z.string().min(1)).min(1),
  source: z.string().optional(),
});

export type BenchTask = z.infer<typeof benchTaskSchema>;

/** Reads a JSON Lines task file; a bad line is an error naming its number. */
export async function readTasks(path: string): Promise<BenchTask[]> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const tasks: BenchTask[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = benchTaskSchema.safeParse(JSON.parse(line));
    if (!parsed.success)
      throw new Error(
        `${path}:${index + 1}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
      );
    tasks.push(parsed.data);
  });
  return tasks;
}
