/**
 * An assistant connecting over HTTP as a real one would (issue 29): it registers (RFC 7591), a person
 * signs in and presses Allow on the consent page with the scopes given, and the assistant redeems the
 * code at the token endpoint with its PKCE verifier.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { MemberRole } from '../../src/db/tables/index.ts';
import type { TestApp, TestMember, TestWorkspace } from './app.ts';
import { type Browser, OWN_ORIGIN, signIn } from './people.ts';

export const ASSISTANT_REDIRECT = 'https://assistant.example/oauth/callback';
export const MCP_RESOURCE = `${OWN_ORIGIN}/mcp`;
const PASSWORD = 'correct horse battery staple';

export interface AllowedCode {
  clientId: string;
  code: string;
  verifier: string;
  member: TestMember;
  person: Browser;
}

/** Registers a client named `clientName` and has a new member with `role` allow it `scopes`; answers the code. */
export async function allowAssistant(
  harness: TestApp,
  ws: TestWorkspace,
  options: { role?: MemberRole; scopes?: string[]; clientName?: string; clientId?: string; member?: TestMember } = {},
): Promise<AllowedCode> {
  const clientId = options.clientId ?? (await registerAssistant(harness, options.clientName ?? 'Test Assistant'));
  const member = options.member ?? (await ws.addMember({ role: options.role ?? 'owner', name: 'Ada Allower', password: PASSWORD }));
  const person = await signIn(harness.app, member.email, PASSWORD);
  const verifier = randomBytes(32).toString('base64url');
  const parameters = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: ASSISTANT_REDIRECT,
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: MCP_RESOURCE,
    scope: (options.scopes ?? ['videos:read']).join(' '),
  });
  const location = await consentTo(harness, person, `/oauth/authorize?${parameters}`, ws.id, options.scopes ?? ['videos:read']);
  const code = new URL(location).searchParams.get('code') as string;
  assert.ok(code, location);
  return { clientId, code, verifier, member, person };
}

/**
 * The person's part: opens the consent page at `authorizePath` (a path, or a URL of this service),
 * ticks exactly `scopes` in workspace `workspaceId` and presses Allow; answers where it redirected.
 */
export async function consentTo(
  harness: TestApp,
  person: Browser,
  authorizePath: string,
  workspaceId: string,
  scopes: readonly string[],
): Promise<string> {
  const url = new URL(authorizePath, OWN_ORIGIN);
  const page = await person.get(`${url.pathname}${url.search}`);
  assert.equal(page.statusCode, 200, page.body);
  const form = new URLSearchParams(consentFormFields(page.body));
  form.set('workspace_id', workspaceId);
  form.set('decision', 'allow');
  for (const scope of scopes) form.append('grant', scope);
  const allowed = await harness.app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    remoteAddress: person.address,
    headers: {
      cookie: person.cookie as string,
      origin: OWN_ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: form.toString(),
  });
  assert.equal(allowed.statusCode, 303, allowed.body);
  return allowed.headers.location as string;
}

/** The consent form's hidden fields as the page has them (the request, the CSRF token, the workspace), values unescaped. */
export function consentFormFields(html: string): [string, string][] {
  const form = html.slice(html.indexOf('<form method="post"'));
  return [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
    // Undoes escapeHtml's numeric references.
    (match) => [match[1] as string, (match[2] as string).replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))],
  );
}

export async function registerAssistant(harness: TestApp, clientName = 'Test Assistant'): Promise<string> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: clientName, redirect_uris: [ASSISTANT_REDIRECT] }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().client_id;
}

/** POST to the token or revocation endpoint with form `fields` (a list, so a parameter may repeat). */
export function tokenRequest(harness: TestApp, fields: Record<string, string> | [string, string][], path = '/oauth/token') {
  return harness.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Redeems an allowed code; answers the token response's body. */
export async function redeem(harness: TestApp, allowed: AllowedCode) {
  const response = await tokenRequest(harness, {
    grant_type: 'authorization_code',
    client_id: allowed.clientId,
    code: allowed.code,
    redirect_uri: ASSISTANT_REDIRECT,
    code_verifier: allowed.verifier,
    resource: MCP_RESOURCE,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { access_token: string; refresh_token: string; expires_in: number; token_type: string; scope: string };
}
