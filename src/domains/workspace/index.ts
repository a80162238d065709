/**
 * The front door of the workspace area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { workspaceFactsTable } from './workspace-facts-table.queries.ts';
export { lockWorkspace, type WorkspaceFacts, workspaceFacts, workspaceNames, workspaceTimeZone } from './workspace-facts.queries.ts';
export { workspaceSettings } from './workspace-settings.queries.ts';
export { countWorkspaces, getAssistantGuidance, insertWorkspace, sealedStripeSecret } from './workspace.queries.ts';
