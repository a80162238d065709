/** The revenue ledger's operations, in catalog order. */
export const outcomeOperations = [];
