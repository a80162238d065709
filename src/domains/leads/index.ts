/**
 * The front door of the leads area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { ENGAGEMENT_POINTS } from './engagement-score.ts';
export { leadBrowsers } from './lead-browsers.queries.ts';
export { emitLeadChange } from './lead-change-events.ts';
export { assertLeadInWorkspace, lockLeadForChange } from './lead-existence.queries.ts';
export {
  LEAD_FORM_FIELDS,
  LeadForm,
  type LeadFormField,
  leadFormProblems,
  LeadFormSetting,
  normalizeLeadForm,
  storedLeadForm,
} from './lead-form.ts';
export { countLeads, leadsByCaptureTime } from './lead-roster.queries.ts';
export { AUTOMATIC_AUTHOR, automaticStatus } from './lead-status.ts';
export { newLeadCounts } from './new-lead-counts.queries.ts';
export { latestLeadOfViewer } from './viewer-leads.queries.ts';

// Then the files that reach other areas.
export { type CapturedFields, captureLead, captureLeadIn } from './lead-capture.ts';
export { leadContactByEmail, leadContacts } from './lead-contacts.queries.ts';
export { leadCreationTimes, leadIdByEmail, leadOrigin } from './lead-facts.queries.ts';
export {
  addLeadEngagement,
  emailKey,
  type LeadFields,
  leadSnapshot,
  linkViewerToLead,
  recordLeadActivity,
  upsertLeadRecord,
} from './lead-records.queries.ts';
export { leadSearchMatches } from './lead-search.queries.ts';
export { containsPattern, leadTextMatch } from './leads.queries.ts';
export { creditLeadsOfViewer, creditViewingToLeadsOfMany, type ViewingProgress } from './viewing-engagement.ts';
