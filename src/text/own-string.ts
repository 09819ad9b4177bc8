/**
 * `text` as a string of its own. A string cut from a longer one (a name from its line, a line from
 * its file) is a slice that keeps the whole alive for as long as the cut is kept: an outline, or a
 * match's definition, kept the whole text of a file that was otherwise let go. Joined to a
 * character and cut again, it is copied.
 */
export const ownString = (text: string): string => ` ${text}`.slice(1);
