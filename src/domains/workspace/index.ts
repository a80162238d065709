import { getWorkspace } from './operations/get-workspace.ts';
import { updateWorkspace } from './operations/update-workspace.ts';

export const workspaceOperations = [getWorkspace, updateWorkspace];
