/**
 * What a conversion is, written once for every surface that reports one (get_video's stats and the
 * analytics operations): a view that clicked the call to action, plus a lead the video's form
 * captured. The rollups keep the two counts apart (`conversions`, `leads`); this adds them.
 */
export function conversionsOf(counts: { conversions: number; leads: number }): number {
  return counts.conversions + counts.leads;
}
