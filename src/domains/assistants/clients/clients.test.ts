/**
 * The client registry on the real database: registered clients by id; metadata-document clients
 * read from their document (through the SSRF guard's fetch, a real HTTP server standing in for the
 * client's https host), kept while fresh, read again when stale, refused whenever the document is
 * not exactly theirs; registrations nobody used swept.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { parseCidr } from '../../../net/address-policy.ts';
import { safeFetchBuffered } from '../../../net/safe-fetch.ts';
import { DOCUMENT_MAX_BYTES, type DocumentFetch } from './client-metadata-document.ts';
import { findClient, markClientUsed, registerClient, sweepUnusedClients } from './clients.queries.ts';

const HOUR = 60 * 60 * 1000;

/** A client's host: answers each path with what `pages` says, and counts the requests. */
async function clientHost(
  t: { after(fn: () => unknown): void },
  pages: Record<string, (response: ServerResponse, request: IncomingMessage) => void>,
) {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const page = pages[request.url ?? ''];
    if (page) page(response, request);
    else response.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise((ok) => server.close(ok)));
  const port = (server.address() as AddressInfo).port;
  // The https URL a client would use, fetched from this server with the guard's own limits.
  const fetchDocument: DocumentFetch = (url) =>
    safeFetchBuffered(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
      allowPrivateNetworks: [parseCidr('127.0.0.0/8')],
      maxBytes: DOCUMENT_MAX_BYTES,
      timeoutMs: 5_000,
      followRedirects: false,
    });
  return { requests, fetchDocument };
}

const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  (response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

test('a registered client is found by its id; an unknown id is named as such', async (t) => {
  const { database } = await startTestApp(t);
  const now = new Date();
  const client = await registerClient(
    database.db,
    { clientName: 'Inspector', clientUri: null, redirectUris: ['http://localhost:6274/oauth/callback'] },
    now,
  );
  assert.match(client.clientId, /^cue_client_[A-Za-z0-9_-]{24}$/);
  const fetchDocument: DocumentFetch = () => assert.fail('a registered client is never fetched');
  const found = await findClient(database.db, client.clientId, { fetchDocument, now });
  assert.ok(found.ok);
  assert.deepEqual(found.client, { ...client, createdAt: found.client.createdAt });
  assert.equal(found.client.createdAt.getTime(), now.getTime());
  assert.deepEqual(await findClient(database.db, 'cue_client_nobody', { fetchDocument, now }), {
    ok: false,
    problems: ['no client has the id "cue_client_nobody"'],
  });
});

test('a metadata-document client is read from its URL, kept while fresh, and read again once stale', async (t) => {
  const { database } = await startTestApp(t);
  const path = `/clients/${crypto.randomUUID()}.json`;
  let name = 'Claude';
  const host = await clientHost(t, {
    [path]: (response, request) => {
      const clientId = `https://assistant.example${request.url}`;
      json(
        { client_id: clientId, client_name: name, redirect_uris: ['https://assistant.example/callback'] },
        { 'cache-control': 'public, max-age=7200' },
      )(response);
    },
  });
  const clientId = `https://assistant.example${path}`;
  const now = new Date();
  const first = await findClient(database.db, clientId, { fetchDocument: host.fetchDocument, now });
  assert.ok(first.ok, JSON.stringify(first));
  assert.deepEqual(
    { ...first.client, createdAt: undefined },
    {
      clientId,
      registration: 'metadata_document',
      clientName: 'Claude',
      clientUri: null,
      redirectUris: ['https://assistant.example/callback'],
      createdAt: undefined,
    },
  );
  name = 'Claude (renamed)';
  const within = await findClient(database.db, clientId, { fetchDocument: host.fetchDocument, now: new Date(now.getTime() + HOUR) });
  assert.ok(within.ok);
  assert.equal(within.client.clientName, 'Claude', 'two hours of max-age: the first reading holds');
  assert.equal(host.requests.length, 1);
  const later = await findClient(database.db, clientId, {
    fetchDocument: host.fetchDocument,
    now: new Date(now.getTime() + 2 * HOUR + 1000),
  });
  assert.ok(later.ok);
  assert.equal(later.client.clientName, 'Claude (renamed)');
  assert.equal(host.requests.length, 2);
  const rows = await database.db.selectFrom('oauth_clients').select('client_id').where('client_id', '=', clientId).execute();
  assert.equal(rows.length, 1, 'one row, updated');
});

test('a document held only a minute when it says no-store or a shorter max-age, an hour when it says nothing', async (t) => {
  const { database } = await startTestApp(t);
  const documents = { '/no-store.json': 'no-store', '/short.json': 'max-age=5', '/silent.json': undefined };
  const host = await clientHost(
    t,
    Object.fromEntries(
      Object.entries(documents).map(([path, cacheControl]) => [
        path,
        json(
          { client_id: `https://a.example${path}`, client_name: 'A', redirect_uris: ['https://a.example/cb'] },
          cacheControl ? { 'cache-control': cacheControl } : {},
        ),
      ]),
    ),
  );
  const now = new Date();
  for (const [path, freshFor] of [
    ['/no-store.json', 60_000],
    ['/short.json', 60_000],
    ['/silent.json', HOUR],
  ] as const) {
    const clientId = `https://a.example${path}`;
    // Each test runs on a database other tests share: begin from no reading of this URL.
    await database.db.deleteFrom('oauth_clients').where('client_id', '=', clientId).execute();
    assert.ok((await findClient(database.db, clientId, { fetchDocument: host.fetchDocument, now })).ok);
    const row = await database.db
      .selectFrom('oauth_clients')
      .select('fresh_until')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    assert.equal(row.fresh_until?.getTime(), now.getTime() + freshFor, path);
  }
});

test('a document is refused unless it is exactly its own URL’s, small, JSON, a 200, and names the client', async (t) => {
  const { database } = await startTestApp(t);
  const host = await clientHost(t, {
    '/other.json': json({
      client_id: 'https://refused.example/elsewhere.json',
      client_name: 'A',
      redirect_uris: ['https://refused.example/cb'],
    }),
    '/trailing.json': json({
      client_id: 'https://refused.example/trailing.json/',
      client_name: 'A',
      redirect_uris: ['https://refused.example/cb'],
    }),
    '/big.json': json({
      client_id: 'https://refused.example/big.json',
      client_name: 'A',
      redirect_uris: ['https://refused.example/cb'],
      logo: 'x'.repeat(DOCUMENT_MAX_BYTES),
    }),
    '/moved.json': (response) => response.writeHead(302, { location: '/other.json' }).end(),
    '/html.json': (response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>'),
    '/secret.json': json({
      client_id: 'https://refused.example/secret.json',
      client_name: 'A',
      client_secret: 'x',
      redirect_uris: ['https://refused.example/cb'],
    }),
    '/bad-redirect.json': json({
      client_id: 'https://refused.example/bad-redirect.json',
      client_name: 'A',
      redirect_uris: ['http://refused.example/cb'],
    }),
  });
  const now = new Date();
  const refusals: [string, RegExp][] = [
    ['https://refused.example/other.json', /must say client_id "https:\/\/refused\.example\/other\.json", exactly its own URL/],
    ['https://refused.example/trailing.json', /exactly its own URL/],
    ['https://refused.example/big.json', /could not be fetched/],
    ['https://refused.example/moved.json', /answered 302, not 200/],
    ['https://refused.example/missing.json', /answered 404, not 200/],
    ['https://refused.example/html.json', /is not JSON/],
    ['https://refused.example/secret.json', /must not contain a client_secret/],
    ['https://refused.example/bad-redirect.json', /redirect_uris\[0\] uses http on a host other than/],
    ['https://refused.example/', /must have a path/],
    ['https://refused.example/x/../client.json', /\. or \.\. path segments/],
    ['https://refused.example/client.json#x', /must not have a fragment/],
  ];
  for (const [clientId, problem] of refusals) {
    const found = await findClient(database.db, clientId, { fetchDocument: host.fetchDocument, now });
    assert.ok(!found.ok, clientId);
    assert.ok(
      found.problems.some((text) => problem.test(text)),
      `${clientId}: ${found.problems.join('; ')}`,
    );
  }
  const kept = await database.db
    .selectFrom('oauth_clients')
    .select('client_id')
    .where('client_id', 'like', 'https://refused.example/%')
    .execute();
  assert.deepEqual(kept, [], 'nothing refused is kept');
  assert.ok(
    !host.requests.some((url) => url === '/' || url.includes('..') || url.includes('#')),
    'URLs refused on sight are never fetched',
  );
});

test('registrations never used are swept after the age given; used and recent ones stay', async (t) => {
  const { database } = await startTestApp(t);
  const metadata = { clientName: 'Sweep', clientUri: null, redirectUris: ['https://s.example/cb'] };
  const now = new Date();
  const old = await registerClient(database.db, metadata, new Date(now.getTime() - 40 * 24 * HOUR));
  const oldButUsed = await registerClient(database.db, metadata, new Date(now.getTime() - 40 * 24 * HOUR));
  await markClientUsed(database.db, oldButUsed.clientId, now);
  const recent = await registerClient(database.db, metadata, now);
  const swept = await sweepUnusedClients(database.db, new Date(now.getTime() - 30 * 24 * HOUR));
  assert.ok(swept >= 1);
  const left = (await database.db.selectFrom('oauth_clients').select('client_id').where('client_name', '=', 'Sweep').execute()).map(
    (row) => row.client_id,
  );
  assert.ok(!left.includes(old.clientId));
  assert.ok(left.includes(oldButUsed.clientId) && left.includes(recent.clientId));
});
