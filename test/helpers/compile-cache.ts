/**
 * Loaded before every test file by `npm run test:unit` (`--import`): turns on Node's compile cache,
 * the same one `cuepoint` uses (src/compile-cache.ts), so each test process, and each service process
 * a test starts, loads the service's TypeScript and packages from cached bytecode instead of
 * compiling them again (about half a second per file).
 */
import { enableProjectCompileCache } from '../../src/compile-cache.ts';

enableProjectCompileCache();
