/**
 * Runs once before `npm run test:unit` starts any test file (`--test-global-setup`): makes sure the
 * migrated database template is cached on disk, so the test files starting in parallel load it
 * instead of each making it (initdb and every migration) at once.
 */
import { cacheTemplate } from '../../src/db/pglite-template.ts';

export async function globalSetup(): Promise<void> {
  await cacheTemplate();
}
