/**
 * The front door of the audit area (issue 27, DESIGN §10): writing the audit log. Every other area,
 * the pipeline, the public pages and the command line record their changes through it, in their own
 * transaction. The catalog takes the area's operation (list_audit_events) from ./operations.ts.
 */
export { type AuditEntry, recordAuditEvent, recordAuditEvents } from './audit-entry.ts';
