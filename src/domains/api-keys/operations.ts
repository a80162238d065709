/** The api-keys area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { createApiKey } from './operations/create-api-key.ts';
import { deleteApiKey } from './operations/delete-api-key.ts';
import { listApiKeys } from './operations/list-api-keys.ts';

export const apiKeyOperations = [listApiKeys, createApiKey, deleteApiKey];
