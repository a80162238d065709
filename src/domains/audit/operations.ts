/** The audit area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { listAuditEvents } from './operations/list-audit-events.ts';

export const auditOperations = [listAuditEvents];
