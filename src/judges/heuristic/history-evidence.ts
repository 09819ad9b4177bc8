import { scoreFilesByHistory, type HistoryEvidence } from '../../history/history-scores.js';
import type { TermModel } from './term-model.js';
import type { RepoOverview } from '../../contracts/overview.js';

const cache = new WeakMap<RepoOverview, WeakMap<TermModel, Map<string, HistoryEvidence>>>();

/** What the repository's past says of each file for this task, computed once per run and task. */
export function historyOf(
  overview: RepoOverview,
  model: TermModel,
): ReadonlyMap<string, HistoryEvidence> {
  let byModel = cache.get(overview);
  if (!byModel) cache.set(overview, (byModel = new WeakMap()));
  let scores = byModel.get(model);
  if (!scores)
    byModel.set(model, (scores = scoreFilesByHistory(overview.history, model.terms.text)));
  return scores;
}
