/** The email area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { listEmails } from './operations/list-emails.ts';

export const emailOperations = [listEmails];
