import { listTags } from './operations/list-tags.ts';
import { renameTag } from './operations/rename-tag.ts';

export const tagOperations = [listTags, renameTag];
