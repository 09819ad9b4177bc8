/**
 * Words of a task written in Chinese, Japanese or Korean. These scripts have no identifiers to
 * split, and Chinese and Japanese put no spaces between words, so their text is searched as
 * written: a quoted message (an error or a label the code prints) and short runs of such
 * characters (a word or two, as a comment or a message in the code may hold them).
 */

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー';
const CJK_RUN = new RegExp(`[${CJK}]+`, 'gu');
/** A quoted passage with at least one such character: 「…」, 『…』, “…” or "…". */
const QUOTED = new RegExp(`[「『“"]([^「『“"」』”\\n]*[${CJK}][^「『“"」』”\\n]*)[」』”"]`, 'gu');
const HAS_CJK = new RegExp(`[${CJK}]`, 'u');

const MOST_PHRASES = 6;
const MOST_QUOTED_LENGTH = 40;
/** Longer runs are clauses, which code does not repeat word for word. */
const RUN_LENGTHS = { least: 2, most: 8 };

export const hasCjk = (text: string): boolean => HAS_CJK.test(text);

/** Quoted passages first, then runs, each once, at most six. */
export function cjkPhrases(text: string): { quoted: string[]; runs: string[] } {
  if (!hasCjk(text)) return { quoted: [], runs: [] };
  const seen = new Set<string>();
  const take = (phrase: string) => {
    if (seen.size >= MOST_PHRASES || seen.has(phrase)) return false;
    seen.add(phrase);
    return true;
  };
  const quoted = [...text.matchAll(QUOTED)]
    .map((match) => (match[1] ?? '').trim())
    .filter((phrase) => phrase.length >= 2 && phrase.length <= MOST_QUOTED_LENGTH)
    .filter(take);
  const runs = [...text.matchAll(CJK_RUN)]
    .map((match) => match[0])
    .filter((run) => run.length >= RUN_LENGTHS.least && run.length <= RUN_LENGTHS.most)
    .filter(take);
  return { quoted, runs };
}
