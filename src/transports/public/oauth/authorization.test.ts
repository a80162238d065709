/**
 * GET and POST /oauth/authorize over HTTP: signed out, the request goes through sign-in and back;
 * the consent page names the client and where it redirects, ticks only the read scopes asked for and
 * offers nothing beyond the role; Allow sends a code with `state` and `iss`, Deny `access_denied`; a
 * forged form (a scope beyond the role, another's workspace, no CSRF token) gets nothing; a request
 * naming an unknown client or redirect URI is never sent back, any other bad one is.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { consentFormFields } from '../../../../test/helpers/oauth.ts';
import { type Browser, browser, csrfOf, OWN_ORIGIN, signIn } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://assistant.example/oauth/callback';
/** Printable ASCII with the characters HTML and URLs escape: it must come back exactly. */
const STATE = `st&"'<x> +%=1`;
const VERIFIER = 'a-verifier-of-forty-three-characters-or-more-0123456789';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

async function registeredClient(harness: TestApp, redirectUris = [REDIRECT]): Promise<string> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: redirectUris }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().client_id;
}

function authorizeUrl(clientId: string, overrides: Record<string, string | undefined> = {}): string {
  const parameters: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'videos:read videos:write leads:read',
    state: STATE,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    resource: `${OWN_ORIGIN}/mcp`,
    ...overrides,
  };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) search.set(name, value);
  return `/oauth/authorize?${search}`;
}

/** The consent form's fields as the page has them, with `extra` pairs (repeatable) added. */
function consentForm(html: string, extra: [string, string][]): string {
  return new URLSearchParams([...consentFormFields(html), ...extra]).toString();
}

async function submit(harness: TestApp, person: Browser, payload: string, headers: Record<string, string> = {}) {
  return harness.app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    remoteAddress: person.address,
    headers: {
      cookie: person.cookie as string,
      origin: OWN_ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    payload,
  });
}

const codeRows = (harness: TestApp, clientId: string) =>
  harness.database.db.selectFrom('oauth_codes').selectAll().where('client_id', '=', clientId).execute();

test('signed out, the request goes through sign-in and back; the page names the client and offers the role', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const clientId = await registeredClient(harness);
  const url = authorizeUrl(clientId);

  const away = await harness.app.inject({ method: 'GET', url });
  assert.equal(away.statusCode, 303);
  const signInUrl = away.headers.location as string;
  assert.match(signInUrl, /^\/sign-in\?next=/);
  const next = new URL(signInUrl, OWN_ORIGIN).searchParams.get('next') as string;
  assert.deepEqual(
    Object.fromEntries(new URL(next, OWN_ORIGIN).searchParams),
    Object.fromEntries(new URL(url, OWN_ORIGIN).searchParams),
    'next carries the whole request',
  );
  const signInPage = await harness.app.inject({ method: 'GET', url: signInUrl });
  assert.match(signInPage.body, /<input type="hidden" name="next" value="\/oauth\/authorize\?/, 'the sign-in form keeps it');

  const person = browser(harness.app);
  const back = await person.post('/sign-in', { email: owner.email, password: PASSWORD, next });
  assert.equal(back.statusCode, 303, back.body);
  assert.equal(back.headers.location, next, 'signed in, straight back to the request');
  const page = await person.get(next);
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /<h1>Connect Test Assistant to Cuepoint\?<\/h1>/);
  assert.match(page.body, /as you, Olive Owner/);
  assert.match(page.body, /registered itself, so Cuepoint cannot confirm who made it/);
  assert.match(page.body, /<strong>assistant\.example<\/strong>/, 'where it redirects, by host');
  assert.match(page.body, /<button type="submit" name="decision" value="allow">Allow<\/button>/);
  assert.match(page.body, /<button type="submit" name="decision" value="deny" class="secondary">Deny<\/button>/);
  const ticked = [...page.body.matchAll(/name="grant" value="([^"]+)" checked/g)].map((match) => match[1]);
  assert.deepEqual(ticked, ['videos:read', 'leads:read'], 'only the read scopes asked for are ticked');
  const offered = [...page.body.matchAll(/name="grant" value="([^"]+)"/g)].map((match) => match[1]);
  assert.ok(offered.includes('workspace:manage'), 'an owner may give everything their role holds');
  const policy = page.headers['content-security-policy'] as string;
  assert.match(policy, /form-action 'self' https:\/\/assistant\.example(;|$)/, 'Allow and Deny may lead to the redirect URI');
  assert.match(policy, /frame-ancestors 'none'/);
  assert.equal(page.headers['x-frame-options'], 'DENY');
});

test('Allow without changes grants the read scopes asked for: a code, state and iss go back; Deny sends access_denied', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const clientId = await registeredClient(harness);
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const page = await person.get(authorizeUrl(clientId));
  const ticked = [...page.body.matchAll(/name="grant" value="([^"]+)" checked/g)].map(
    (match) => ['grant', match[1] as string] as [string, string],
  );

  const allowed = await submit(harness, person, consentForm(page.body, [...ticked, ['decision', 'allow']]));
  assert.equal(allowed.statusCode, 303, allowed.body);
  const location = new URL(allowed.headers.location as string);
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
  assert.equal(location.searchParams.get('state'), STATE);
  assert.equal(location.searchParams.get('iss'), OWN_ORIGIN, 'RFC 9207');
  const code = location.searchParams.get('code') as string;
  assert.match(code, /^[A-Za-z0-9_-]{43}$/);
  const [row] = await codeRows(harness, clientId);
  assert.ok(row);
  assert.equal(row.code_hash, createHash('sha256').update(code).digest('hex'), 'only the hash is kept');
  assert.deepEqual(row.scopes, ['videos:read', 'leads:read']);
  assert.equal(row.workspace_id, ws.id);
  assert.equal(row.user_id, owner.userId);
  assert.equal(row.redirect_uri, REDIRECT);
  assert.equal(row.code_challenge, CHALLENGE);
  assert.equal(row.resource, `${OWN_ORIGIN}/mcp`);
  const client = await harness.database.db
    .selectFrom('oauth_clients')
    .select('last_used_at')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  assert.ok(client?.last_used_at, 'a client that was allowed is kept from the sweep');

  const denied = await submit(harness, person, consentForm(page.body, [...ticked, ['decision', 'deny']]));
  assert.equal(denied.statusCode, 303);
  const refusal = new URL(denied.headers.location as string);
  assert.equal(refusal.searchParams.get('error'), 'access_denied');
  assert.equal(refusal.searchParams.get('state'), STATE);
  assert.equal(refusal.searchParams.get('iss'), OWN_ORIGIN);
  assert.equal(refusal.searchParams.get('code'), null);
  assert.equal((await codeRows(harness, clientId)).length, 1, 'Deny issues nothing');
});

test('a client that asked for no scope gets the read tier ticked; a member is offered no more than the write tier', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const clientId = await registeredClient(harness);
  const person = await signIn(harness.app, member.email, PASSWORD);
  const page = await person.get(authorizeUrl(clientId, { scope: undefined }));
  assert.equal(page.statusCode, 200);
  const ticked = [...page.body.matchAll(/name="grant" value="([^"]+)" checked/g)].map((match) => match[1]);
  assert.deepEqual(ticked, [
    'videos:read',
    'analytics:read',
    'outcomes:read',
    'leads:read',
    'transcripts:read',
    'routes:read',
    'workspace:read',
  ]);
  const offered = [...page.body.matchAll(/name="grant" value="([^"]+)"/g)].map((match) => match[1]);
  assert.equal(offered.includes('workspace:manage'), false);
  assert.ok(offered.includes('videos:write'));

  // A forged form asking beyond the role, or naming no scope at all: nothing is issued.
  const beyond = await submit(
    harness,
    person,
    consentForm(page.body, [
      ['grant', 'workspace:manage'],
      ['decision', 'allow'],
    ]),
  );
  assert.equal(beyond.statusCode, 400);
  assert.match(beyond.body, /Your role does not hold workspace:manage/);
  const none = await submit(harness, person, consentForm(page.body, [['decision', 'allow']]));
  assert.equal(none.statusCode, 400);
  assert.match(none.body, /Choose at least one permission to allow, or press Deny\./);
  const made = await submit(
    harness,
    person,
    consentForm(page.body, [
      ['grant', 'not:a-scope'],
      ['decision', 'allow'],
    ]),
  );
  assert.equal(made.statusCode, 400);
  assert.equal((await codeRows(harness, clientId)).length, 0);
});

test('the workspace is the person’s to choose, and only among their own; another role there changes what is offered', async (t) => {
  const harness = await startTestApp(t);
  const first = await harness.workspace();
  const second = await harness.workspace();
  const stranger = await harness.workspace();
  const owner = await first.addMember({ role: 'owner', password: PASSWORD });
  const now = new Date();
  await harness.database.db
    .insertInto('members')
    .values({ id: randomUUID(), workspace_id: second.id, user_id: owner.userId, role: 'viewer', created_at: now, updated_at: now })
    .execute();
  const clientId = await registeredClient(harness);
  const person = await signIn(harness.app, owner.email, PASSWORD);

  const page = await person.get(authorizeUrl(clientId));
  assert.match(page.body, /<select id="workspace" name="workspace">/);
  const asViewer = await person.get(`${authorizeUrl(clientId)}&workspace=${second.id}`);
  assert.match(asViewer.body, new RegExp(`name="workspace_id" value="${second.id}"`));
  const offered = [...asViewer.body.matchAll(/name="grant" value="([^"]+)"/g)].map((match) => match[1]);
  assert.equal(offered.includes('videos:write'), false, 'a viewer there can give reading only');

  const forged = await submit(
    harness,
    person,
    consentForm(asViewer.body, [
      ['grant', 'videos:write'],
      ['decision', 'allow'],
    ]),
  );
  assert.equal(forged.statusCode, 400);
  assert.match(forged.body, /Your role does not hold videos:write/);
  const elsewhere = await submit(
    harness,
    person,
    consentForm(page.body, [
      ['grant', 'videos:read'],
      ['decision', 'allow'],
    ]).replace(first.id, stranger.id),
  );
  assert.equal(elsewhere.statusCode, 400);
  assert.match(elsewhere.body, /the form named one you do not belong to/);
  assert.equal((await codeRows(harness, clientId)).length, 0);

  const inSecond = await submit(
    harness,
    person,
    consentForm(asViewer.body, [
      ['grant', 'videos:read'],
      ['decision', 'allow'],
    ]),
  );
  assert.equal(inSecond.statusCode, 303);
  const [row] = await codeRows(harness, clientId);
  assert.equal(row?.workspace_id, second.id);
});

test('a form from another site, or without the session’s token, is refused; a signed-out one goes to sign-in', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const clientId = await registeredClient(harness);
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const page = await person.get(authorizeUrl(clientId));
  const form = consentForm(page.body, [
    ['grant', 'videos:read'],
    ['decision', 'allow'],
  ]);

  const crossSite = await submit(harness, person, form, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  assert.equal(crossSite.statusCode, 403);
  const noToken = await submit(harness, person, form.replace(/csrf=[^&]+/, 'csrf=forged'));
  assert.equal(noToken.statusCode, 403);
  const signedOut = await submit(harness, { ...person, cookie: 'cuepoint_session=nobody' }, form);
  assert.equal(signedOut.statusCode, 303);
  assert.match(signedOut.headers.location as string, /^\/sign-in\?next=%2Foauth%2Fauthorize%3F/);
  assert.equal((await codeRows(harness, clientId)).length, 0);
  assert.equal(csrfOf(page.body).length > 0, true);
});

test('an unknown client or redirect URI is shown to the person, never sent back; other problems go back with state and iss', async (t) => {
  const harness = await startTestApp(t);
  const clientId = await registeredClient(harness);
  const get = (url: string) => harness.app.inject({ method: 'GET', url });

  for (const [url, problem] of [
    [authorizeUrl('cue_client_nobody'), /no client has the id/],
    [authorizeUrl(clientId, { redirect_uri: 'https://evil.example/steal' }), /is not one the client registered/],
    [authorizeUrl(clientId, { client_id: undefined }), /client_id is required/],
    [`${authorizeUrl(clientId)}&redirect_uri=${encodeURIComponent(REDIRECT)}`, /redirect_uri must be given once/],
  ] as const) {
    const response = await get(url);
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.headers.location, undefined);
    assert.match(response.body, /This connection link does not work/);
    assert.match(response.body, problem);
    assert.match(response.headers['content-security-policy'] as string, /form-action 'none'/);
  }

  for (const [overrides, error, description] of [
    [{ code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request', /code_challenge/],
    [{ response_type: 'token' }, 'unsupported_response_type', /response_type must be code/],
    [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target', /resource must be/],
    [{ scope: 'videos:read everything' }, 'invalid_scope', /unknown scopes: everything/],
  ] as const) {
    const response = await get(authorizeUrl(clientId, overrides));
    assert.equal(response.statusCode, 302, JSON.stringify(overrides));
    const location = new URL(response.headers.location as string);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get('error'), error);
    assert.match(location.searchParams.get('error_description') as string, description);
    assert.equal(location.searchParams.get('state'), STATE);
    assert.equal(location.searchParams.get('iss'), OWN_ORIGIN);
  }
  assert.equal((await codeRows(harness, clientId)).length, 0);
});

test('a loopback redirect on any port is allowed and the page says the app runs on this computer', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const clientId = await registeredClient(harness, ['http://127.0.0.1/callback']);
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const page = await person.get(authorizeUrl(clientId, { redirect_uri: 'http://127.0.0.1:49152/callback' }));
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /An app on this computer/);
  assert.match(page.body, /Allow only if you started this app yourself just now/);
  assert.match(page.headers['content-security-policy'] as string, /form-action 'self' http:\/\/127\.0\.0\.1:49152(;|$)/);
  const allowed = await submit(
    harness,
    person,
    consentForm(page.body, [
      ['grant', 'videos:read'],
      ['decision', 'allow'],
    ]),
  );
  assert.equal(allowed.statusCode, 303);
  assert.match(allowed.headers.location as string, /^http:\/\/127\.0\.0\.1:49152\/callback\?code=/);
});
