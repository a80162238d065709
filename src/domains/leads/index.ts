/**
 * The front door of the leads area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { ENGAGEMENT_POINTS } from './engagement-score.ts';
export { type CapturedFields, captureLead, captureLeadIn, countLead } from './lead-capture.ts';
export { emitLeadChange } from './lead-change-events.ts';
export { leadContactByEmail } from './lead-contacts.queries.ts';
export {
  LEAD_FORM_FIELDS,
  LeadForm,
  type LeadFormField,
  LeadFormSetting,
  leadFormProblems,
  normalizeLeadForm,
  storedLeadForm,
} from './lead-form.ts';
export {
  addLeadEngagement,
  emailKey,
  type LeadFields,
  leadSnapshot,
  linkViewerToLead,
  recordLeadActivity,
  upsertLeadRecord,
} from './lead-records.queries.ts';
export { countLeads, leadsByCaptureTime } from './lead-roster.queries.ts';
export { leadSearchMatches } from './lead-search.queries.ts';
export { AUTOMATIC_AUTHOR, automaticStatus } from './lead-status.ts';
export { containsPattern, leadTextMatch } from './leads.queries.ts';
export { newLeadCounts } from './new-lead-counts.queries.ts';
export { latestLeadOfViewer } from './viewer-leads.queries.ts';
export { creditLeadsOfViewer, creditViewingToLeadsOfMany, type ViewingProgress } from './viewing-engagement.ts';
