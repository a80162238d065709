/**
 * TypeBox's Compile, loaded the first time a schema is compiled: typebox/compile brings in TypeBox's
 * value and compiler modules, some 300 files that the schemas themselves do not need, and nothing
 * compiles a schema until a request or an event does. Node loads the ES module synchronously here
 * (require of an ES module), sharing the modules TypeBox's types already loaded.
 */
import { createRequire } from 'node:module';
import type { Compile as CompileFunction } from 'typebox/compile';

let compile: typeof CompileFunction | undefined;

export const compileSchema: typeof CompileFunction = ((...args: Parameters<typeof CompileFunction>) => {
  compile ??= (createRequire(import.meta.url)('typebox/compile') as typeof import('typebox/compile')).Compile;
  return compile(...args);
}) as typeof CompileFunction;
