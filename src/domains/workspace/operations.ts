/** The workspace area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { getWorkspace } from './operations/get-workspace.ts';
import { updateWorkspace } from './operations/update-workspace.ts';

export const workspaceOperations = [getWorkspace, updateWorkspace];
