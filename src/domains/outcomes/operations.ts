/** The revenue ledger's operations, in catalog order. */
import { listOutcomes } from './operations/list-outcomes.ts';
import { recordOutcome } from './operations/record-outcome.ts';

export const outcomeOperations = [listOutcomes, recordOutcome];
