/**
 * The validator builder Fastify uses by default (@fastify/ajv-compiler), loaded when a route first
 * declares a schema to validate, not when the app is built. Our routes declare none (input is checked
 * by the pipeline, core/pipeline/validation.ts), yet Fastify's default factory requires the compiler,
 * and with it Ajv's ninety modules, whenever an app is created: a cost paid by every start (issue 26).
 * Handed to Fastify as a custom builder, it makes Fastify treat the compiler as custom, which only
 * changes how a `headers` schema is passed to it; no route declares one.
 */
import { createRequire } from 'node:module';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';

let selector: BuildCompilerFromPool | undefined;

export const buildRequestValidator: BuildCompilerFromPool = (externalSchemas, options) => {
  if (!selector) {
    // Fastify's dependency, found from Fastify as Fastify finds it.
    const fastify = createRequire(import.meta.url).resolve('fastify');
    selector = (createRequire(fastify)('@fastify/ajv-compiler') as typeof import('@fastify/ajv-compiler'))();
  }
  return selector(externalSchemas, options);
};
