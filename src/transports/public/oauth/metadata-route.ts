/**
 * GET /.well-known/oauth-authorization-server (RFC 8414): what an assistant reads, after the MCP
 * endpoint's protected-resource metadata named this server, to learn where to send a person and
 * where to redeem the code. One issuer, the service's public URL, which also comes back as `iss` in
 * every authorization response (RFC 9207). Readable from any origin (browser-based clients).
 */
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../../core/scopes.ts';
import type { PublicSurfaceDeps } from '../surface.ts';

export function authorizationServerMetadata(publicUrl: string) {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}/oauth/authorize`,
    token_endpoint: `${publicUrl}/oauth/token`,
    registration_endpoint: `${publicUrl}/oauth/register`,
    revocation_endpoint: `${publicUrl}/oauth/revoke`,
    scopes_supported: SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicUrl}/v1/openapi.json`,
  };
}

export function registerMetadataRoute(app: FastifyInstance, deps: PublicSurfaceDeps): void {
  const document = JSON.stringify(authorizationServerMetadata(deps.publicUrl));
  app.get('/.well-known/oauth-authorization-server', async (_request, reply) =>
    reply
      .headers({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=3600' })
      .type('application/json; charset=utf-8')
      .send(document),
  );
}
