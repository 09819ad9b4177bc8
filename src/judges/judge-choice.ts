/** Which judge a run uses: `auto` picks Claude when an API key is configured, else the offline one. */
export const JUDGE_CHOICES = ['auto', 'heuristic', 'claude'] as const;
export type JudgeChoice = (typeof JUDGE_CHOICES)[number];
