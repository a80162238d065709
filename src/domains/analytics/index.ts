/**
 * The front door of the analytics area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { IsoDate } from './analytics.schemas.ts';
