import { createApiKey } from './operations/create-api-key.ts';
import { deleteApiKey } from './operations/delete-api-key.ts';
import { listApiKeys } from './operations/list-api-keys.ts';

export const apiKeyOperations = [listApiKeys, createApiKey, deleteApiKey];
