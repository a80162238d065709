/**
 * TypeBox's Compile, the one place the service loads it (declared outputs' branch checks, event
 * shapes), on the first schema compiled rather than at start-up: typebox/compile adds some 300 modules
 * to the 370 of typebox's types, a tenth of a second or more of every start (issue 26), and both users
 * compile on first use anyway.
 *
 * It is loaded with Node's require of an ES module, which throws (ERR_REQUIRE_ESM_RACE_CONDITION)
 * when an import() of the same modules is still in flight. Nothing in the service imports
 * typebox/compile, so in a server the require is the only load. Test files import this module rather
 * than typebox/compile, and every test process loads typebox/compile before its first test file
 * (test/helpers/compile-cache.ts), so a test's import can never be in flight when another test's
 * compile requires it.
 */
import { createRequire } from 'node:module';
import type { Compile } from 'typebox/compile';

let loaded: typeof Compile | undefined;

export const compileSchema = ((...args: unknown[]) => {
  loaded ??= (createRequire(import.meta.url)('typebox/compile') as typeof import('typebox/compile')).Compile;
  return (loaded as (...a: unknown[]) => unknown)(...args);
}) as typeof Compile;
