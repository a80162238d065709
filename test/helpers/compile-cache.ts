/**
 * Loaded before every test file by `npm run test:unit` (`--import`): turns on Node's compile cache,
 * the same one `cuepoint` uses (src/compile-cache.ts), so each test process, and each service process
 * a test starts, loads the service's TypeScript and packages from cached bytecode instead of
 * compiling them again (about half a second per file).
 *
 * It also loads typebox/compile before any test file. The service loads it with require on its first
 * compiled schema (src/core/compile-schema.ts), and such a require throws while an import() of the
 * same modules is in flight, as a test file's import could be while another file's test compiles.
 */
import { enableProjectCompileCache } from '../../src/compile-cache.ts';

enableProjectCompileCache();
await import('typebox/compile');
