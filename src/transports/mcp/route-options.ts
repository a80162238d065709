/** What POST /mcp needs from the app: the catalog, the pipeline, the credential check and the guidance. */
import type { AnyOperation } from '../../core/operation.ts';
import type { Pipeline } from '../../core/pipeline/pipeline.ts';
import type { Principal } from '../../core/pipeline/principal.ts';
import type { CallOrigins } from '../call-origin.ts';

export interface McpRouteOptions {
  operations: readonly AnyOperation[];
  pipeline: Pipeline;
  /** Resolves a bearer credential, throwing `unauthorized`; the transport never reads the database. */
  identify(authorization: string | undefined): Promise<Principal>;
  /** The workspace's guidance for assistants, read only for initialize. */
  guidanceFor(workspaceId: string): Promise<string>;
  publicUrl: string;
  /** Where a request came from, for the audit events of the writes it runs. */
  originOf: CallOrigins;
}
