import { createHash } from 'node:crypto';

/**
 * At most `count` tasks, spread over the repositories as evenly as they allow: one task of each
 * repository in turn, each repository's tasks in an order fixed by their ids' hashes, so that a
 * quick run is the same sample every time and no repository dominates it.
 */
export function sampleByRepository<Task extends { repo: string; instance_id: string }>(
  tasks: readonly Task[],
  count: number,
): Task[] {
  const order = (task: Task) => createHash('sha256').update(task.instance_id).digest('hex');
  const byRepository = new Map<string, Task[]>();
  for (const task of tasks)
    byRepository.set(task.repo, [...(byRepository.get(task.repo) ?? []), task]);
  const queues = [...byRepository.keys()]
    .sort()
    .map((repo) =>
      (byRepository.get(repo) ?? []).sort((left, right) => (order(left) < order(right) ? -1 : 1)),
    );
  const sample: Task[] = [];
  for (
    let round = 0;
    sample.length < count && queues.some((queue) => queue.length > round);
    round++
  )
    for (const queue of queues) {
      const task = queue[round];
      if (task && sample.length < count) sample.push(task);
    }
  return sample;
}
