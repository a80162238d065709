/** The leads domain's operations, in catalog order. */
export const leadOperations = [];
