import { stemsOf, synonymsIn } from '../../text/synonyms.js';
import { extractTaskTerms, type TaskTerms } from './task-terms.js';
import { IMPORTANCE, LEARNED_IMPORTANCE, PART_SHARE, SYNONYM_IMPORTANCE } from './weights.js';

/**
 * The keywords that speak for a task, each with an importance and a concept. A concept is one
 * idea: a task term together with its lexicon synonyms ("rate limit", "throttle", "quota"). A
 * file is credited once per concept, by its best keyword, so synonyms widen the net without
 * piling up.
 */
export interface TermModel {
  terms: TaskTerms;
  /** Every keyword of the model, most important first: task terms, then synonyms. */
  keywords: string[];
  importanceOf(keyword: string): number;
  conceptOf(keyword: string): string;
}

const stemKey = (text: string) => stemsOf(text).join(' ');

export function buildTermModel(task: string): TermModel {
  const terms = extractTaskTerms(task);
  const importance = new Map<string, number>();
  const concept = new Map<string, string>();
  const order: string[] = [];
  const set = (keyword: string, weight: number, idea: string) => {
    const key = keyword.toLowerCase();
    if (!importance.has(key)) order.push(keyword);
    importance.set(key, weight);
    concept.set(key, idea);
  };
  for (const [keyword, weight] of terms.importance) set(keyword, weight, keyword.toLowerCase());

  for (const { synonym, of } of synonymsIn(terms.prose)) {
    const idea = stemKey(of);
    const ofWords = idea.split(' ');
    // The task's own words for this idea: the keyword that is the term, or the words it is made of.
    const own = terms.keywords.filter((keyword) => ofWords.includes(stemKey(keyword)));
    const ownWeight = Math.max(0, ...own.map((keyword) => terms.importance.get(keyword) ?? 0));
    if (ofWords.length > 1 && !importance.has(of)) {
      for (const part of own)
        importance.set(part.toLowerCase(), (terms.importance.get(part) ?? 0) * PART_SHARE);
      set(of, ownWeight, idea);
    } else {
      for (const part of own) concept.set(part.toLowerCase(), idea);
    }
    // The codebase's word for an idea says no more than the task's own word for it (a plain
    // word's weight when that word did not make the keyword list).
    const synonymWeight = Math.min(SYNONYM_IMPORTANCE, ownWeight > 0 ? ownWeight : IMPORTANCE.word);
    if (!importance.has(synonym.toLowerCase())) set(synonym, synonymWeight, idea);
  }

  const keywords = [...order].sort(
    (left, right) =>
      (importance.get(right.toLowerCase()) ?? 0) - (importance.get(left.toLowerCase()) ?? 0),
  );
  return {
    terms,
    keywords,
    importanceOf: (keyword) => importance.get(keyword.toLowerCase()) ?? LEARNED_IMPORTANCE,
    conceptOf: (keyword) => concept.get(keyword.toLowerCase()) ?? keyword.toLowerCase(),
  };
}
