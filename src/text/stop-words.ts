/**
 * Words that carry no retrieval signal in a task description: English function words, and the
 * vocabulary of issue reports ("bug", "expected", "reproduce") that every task shares.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before
  being below between both but by can cannot could did didn do does doesn doing don down during each
  else etc even ever every few for from further get gets getting got had has hasn have haven having he
  her here hers herself him himself his how however i if in into is isn it its itself just let lets
  like ll me might more most much must my myself need needs no nor not now of off on once one only
  or other our ours ourselves out over own per please re same she should shouldn so some such than
  that the their theirs them themselves then there these they this those though through to too under
  until up upon us ve very via was wasn way we well were weren what when where whether which while
  who whom why will with within without won would wouldn yet you your yours yourself yourselves
  actual actually add added adding again already always another anyone anything appear appears
  around available based become behavior behaviour below bug bugs case cases cause causes change
  changed changes check come comes correct correctly current currently describe described
  description details different does done easy either enough environment example
  examples expect expected expecting fail failed fails failing feature fine fix fixed fixes following
  found give given go goes going good happen happens help however ideal idea instead issue issues
  know latest look looks make makes making many maybe mean means minimal new next note nothing
  observed occur occurs ok okay old possible probably problem problems proposal provide provided
  question rather really reason related repro reproduce reproduced reproduction result results
  right run running say see seem seems seen set should show shows simple since something sometimes
  still sure take tell thanks thank thing things think try trying two use used uses using version
  versions want wants work works working workaround wrong yes`
    .split(/\s+/)
    .filter(Boolean),
);
