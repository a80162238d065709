/** The tags area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { listTags } from './operations/list-tags.ts';
import { renameTag } from './operations/rename-tag.ts';

export const tagOperations = [listTags, renameTag];
