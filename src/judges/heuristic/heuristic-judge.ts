import type { Judge } from '../judge.js';
import { evaluateHeuristically } from './evaluate.js';
import { initialHeuristicQuery } from './initial-query.js';
import { refineHeuristically } from './refine.js';
import { buildTermModel, type TermModel } from './term-model.js';

const MODELS_KEPT = 16;

/**
 * The offline judge: deterministic, free, and useful on its own. It reads the task's terms, scores
 * files by where those terms occur, and learns the codebase's vocabulary between cycles.
 */
export function createHeuristicJudge(): Judge {
  const models = new Map<string, TermModel>();
  const modelFor = (task: string): TermModel => {
    let model = models.get(task);
    if (!model) {
      if (models.size >= MODELS_KEPT) models.delete(models.keys().next().value ?? '');
      model = buildTermModel(task);
      models.set(task, model);
    }
    return model;
  };
  return {
    name: 'heuristic',
    readsExcerpts: false,
    initialQuery: async (task, overview) => initialHeuristicQuery(modelFor(task), overview),
    evaluate: async (task, candidate, context) =>
      evaluateHeuristically(candidate, context, modelFor(task)),
    refine: async (task, evaluations, previousQuery, context) =>
      refineHeuristically(evaluations, previousQuery, context.overview, modelFor(task)),
  };
}
