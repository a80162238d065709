import { getWorkspace } from './operations/get-workspace.ts';

export const workspaceOperations = [getWorkspace];
