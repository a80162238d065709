/**
 * The front door of the leads area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { ENGAGEMENT_POINTS } from './engagement-score.ts';
export { leadBrowsers } from './lead-browsers.queries.ts';
export { type CapturedFields, captureLead, captureLeadIn } from './lead-capture.ts';
export { leadContacts } from './lead-contacts.queries.ts';
export { leadCreationTimes, leadIdByEmail, leadOrigin } from './lead-facts.queries.ts';
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
export { AUTOMATIC_AUTHOR, automaticStatus } from './lead-status.ts';
export { containsPattern, leadTextMatch } from './leads.queries.ts';
export { creditLeadsOfViewer, creditViewingToLeadsOfMany, type ViewingProgress } from './viewing-engagement.ts';
