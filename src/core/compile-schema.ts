/**
 * TypeBox's Compile, the one place the service imports it (declared outputs' branch checks, event
 * shapes). It stays a static import. Loading it on first use with Node's require of an ES module
 * would spare a start some 300 files, but such a require throws (ERR_REQUIRE_ESM_RACE_CONDITION)
 * when an import() of the same modules is still in flight, as a test file's static import of
 * typebox/compile can be while another file's test compiles a schema in the same runner process.
 */
import { Compile } from 'typebox/compile';

export const compileSchema: typeof Compile = Compile;
