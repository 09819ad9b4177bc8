import { oneLine } from '../text/one-line.js';
/** Longest title, in characters: a line a person reads at a glance. */
const TITLE_LENGTH = 120;

/**
 * A task's title: its first non-empty line, on one line and clipped. A hand-over spends its budget
 * on files, not on repeating the task (a 30 KB issue once filled a whole hand-over's heading).
 */
export function taskTitle(task: string): string {
  const line = task
    .split('\n')
    .map(oneLine)
    .find((text) => text !== '');
  if (line === undefined) return '';
  // Cut between characters, not inside one: an emoji is two UTF-16 units.
  const characters = [...line.slice(0, 2 * TITLE_LENGTH)];
  return characters.length > TITLE_LENGTH
    ? `${characters.slice(0, TITLE_LENGTH - 1).join('')}…`
    : line;
}
