/**
 * The videos area's front door, loaded when first used rather than imported. The videos area imports
 * this one's at load (transcriptFacts, and TranscriptSummary for its schemas), so a static import back
 * would close a cycle in which loading this area first reads TranscriptSummary before it is defined.
 */
export const videosArea = () => import('../videos/index.ts');
