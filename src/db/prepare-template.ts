/**
 * Run by `npm install` (the postinstall script): makes and caches the migrated database template
 * (pglite-template.ts) now, so that the first `npm start` on an empty data directory copies it in
 * a second instead of spending ten or more creating the database. Never fails the install: without a
 * cached template the first start makes it itself.
 */
import { cacheTemplate, templateCachePath } from './pglite-template.ts';

try {
  await cacheTemplate();
  process.stdout.write(`cuepoint: database template ready (${templateCachePath()})\n`);
} catch (error) {
  process.stderr.write(`cuepoint: the database template will be made on first start instead: ${(error as Error).message}\n`);
}
