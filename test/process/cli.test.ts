/**
 * The `cuepoint` command as an operator meets it (DESIGN §5): migrate, workspace create, key create
 * and seed --demo on a fresh embedded data dir, with exact --json shapes; mistakes in the call exit 2
 * with the usage; seed --demo without ffmpeg is refused; a server started on a seeded dir serves the
 * seeded library, whose videos play (a real clip, a poster, a transcript), and announces no new key;
 * and the first start of an empty dir prints its admin key exactly once, a second start none. The
 * commands' writes are in the audit log, by the command line.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { probeMedia } from '../../src/media/probe.ts';
import { http, pinnedDemoNow, runCli, type ServerProcess, startServer, tempDir } from '../helpers/server-process.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^cue_live_[0-9A-Za-z]{38}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

// The demo seed is the heaviest step of the suite (half a minute of CPU): the ceiling allows for a
// machine running several suites at once.
test('CLI commands on a fresh data dir, then a server on it', { timeout: 900_000 }, async (t) => {
  const dataDir = tempDir(t);
  const cli = (...args: string[]) => runCli(t, args, { dataDir });

  // A new embedded database is a copy of the migrated template: it is created up to date.
  const migrated = await cli('migrate', '--json');
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.deepEqual(JSON.parse(migrated.stdout), { applied: [] });
  const again = await cli('migrate');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /up to date/);

  // Mistakes in the call: exit 2 with the usage, before anything is opened or written.
  const mistakes = [
    ['frobnicate'],
    ['workspace', 'create', '--name', 'Acme', '--plan', 'bogus'],
    ['workspace', 'create'],
    ['workspace', 'create', '--name', 'Acme', '--colour', 'red'],
    ['key', 'create', '--workspace', '00000000-0000-4000-8000-000000000000', '--scope', 'videos:fly'],
    ['workspace', 'create', '--name', 'Acme', '--owner-email', 'not-an-address'],
    ['workspace', 'invite-owner', '--workspace', 'nope'],
  ];
  const results = await Promise.all(mistakes.map((args) => cli(...args)));
  for (const [i, run] of results.entries()) {
    const call = mistakes[i]?.join(' ');
    assert.equal(run.code, 2, `${call} exits 2: ${run.stderr}`);
    assert.match(run.stderr, /Usage: cuepoint <command>/, `${call} prints the usage`);
    assert.equal(run.stdout, '', `${call} prints nothing on stdout`);
  }

  const created = await cli('workspace', 'create', '--name', 'Acme', '--plan', 'free', '--json');
  assert.equal(created.code, 0, created.stderr);
  const acme = JSON.parse(created.stdout);
  assert.deepEqual(Object.keys(acme).sort(), ['api_key', 'workspace_id']);
  assert.match(acme.workspace_id, UUID);
  assert.match(acme.api_key, API_KEY);

  // With an owner's email, the link that creates their account too (DESIGN §10), and one later for an existing workspace.
  const withOwner = await cli('workspace', 'create', '--name', 'Beta', '--owner-email', 'Owner@Example.com', '--json');
  assert.equal(withOwner.code, 0, withOwner.stderr);
  const beta = JSON.parse(withOwner.stdout);
  assert.deepEqual(Object.keys(beta).sort(), ['api_key', 'owner_invite_url', 'workspace_id']);
  assert.match(beta.owner_invite_url, /^http:\/\/localhost:\d+\/invitations\/[A-Za-z0-9_-]{43}$/);
  const later = await cli('workspace', 'invite-owner', '--workspace', acme.workspace_id, '--json');
  assert.equal(later.code, 0, later.stderr);
  assert.match(JSON.parse(later.stdout).owner_invite_url, /\/invitations\/[A-Za-z0-9_-]{43}$/);
  const unknown = await cli('workspace', 'invite-owner', '--workspace', '00000000-0000-4000-8000-000000000000');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No workspace has the id/);

  const minted = await cli(
    'key',
    'create',
    '--workspace',
    acme.workspace_id,
    '--kind',
    'assistant',
    '--scope',
    'videos:read analytics:read',
    '--json',
  );
  assert.equal(minted.code, 0, minted.stderr);
  const assistant = JSON.parse(minted.stdout);
  assert.match(assistant.key, /^cue_asst_[0-9A-Za-z]{38}$/);
  assert.equal(assistant.kind, 'assistant');
  assert.equal(assistant.tier, 'read');
  assert.deepEqual([...assistant.scopes].sort(), ['analytics:read', 'videos:read']);
  // Assistant tokens expire after 30 days by default (DESIGN §4).
  assert.ok(Math.abs(Date.parse(assistant.expires_at) - Date.now() - 30 * DAY_MS) < DAY_MS, assistant.expires_at);

  // The demo's videos are clips ffmpeg makes: without one, seeding is refused before anything is written.
  const noFfmpeg = await runCli(t, ['seed', '--demo'], { dataDir, env: { CUEPOINT_FFMPEG: 'off' } });
  assert.equal(noFfmpeg.code, 1, noFfmpeg.stderr);
  assert.match(
    noFfmpeg.stderr,
    /^seed --demo makes a short clip for each demo video with ffmpeg, and there is none \(CUEPOINT_FFMPEG is off\)/,
  );
  assert.equal(noFfmpeg.stdout, '');

  // Ninety days of viewing go through the real collection code. Their end is pinned: how many
  // sessions are played depends on its weekday and hour (on 2026-11-24 at 04:55 UTC only 991).
  const seeded = await runCli(t, ['seed', '--demo', '--json'], { dataDir, env: { CUEPOINT_DEMO_NOW: pinnedDemoNow() } });
  assert.equal(seeded.code, 0, seeded.stderr);
  const demo = JSON.parse(seeded.stdout);
  assert.match(demo.workspace_id, UUID);
  assert.match(demo.api_key, API_KEY);
  assert.ok(demo.videos >= 50, seeded.stdout);
  assert.ok(demo.viewing_sessions >= 1000, `${demo.viewing_sessions} viewing sessions played`);
  assert.equal(demo.routes, 3, seeded.stdout);
  assert.equal(demo.event_types, 3, seeded.stdout);
  assert.ok(demo.bookings >= 10, seeded.stdout);
  assert.deepEqual([demo.channel_items, demo.channel_views], [15, 240], seeded.stdout);

  const server = await startServer(t, { dataDir });
  await checkSeededLibrary(server, demo.api_key, demo.videos);
  await checkDemoVideoPlays(server, demo.api_key, tempDir(t));

  // The CLI-made credentials work against the server, with exactly the access they were given.
  const workspace = await http(`${server.url}/v1/workspace`, { token: acme.api_key });
  assert.equal(workspace.status, 200);
  assert.equal(workspace.body.name, 'Acme');
  assert.equal(workspace.body.plan, 'free');
  const asAssistant = await http(`${server.url}/v1/videos`, { token: assistant.key });
  assert.equal(asAssistant.status, 200);
  assert.equal(asAssistant.body.pagination.total, 0, "Acme's library, not the demo's");
  assert.equal((await http(`${server.url}/v1/api-keys`, { token: assistant.key })).status, 403);

  // The command line's writes are in the workspace's audit log, by the command line, newest first.
  const audit = await http(`${server.url}/v1/audit-events`, { token: acme.api_key });
  assert.equal(audit.status, 200, JSON.stringify(audit.body));
  assert.deepEqual(
    audit.body.audit_events.map(
      (e: { action: string; actor: { kind: string; name: string }; object: { kind: string }; origin: unknown }) => [
        e.action,
        e.actor.kind,
        e.actor.name,
        e.object.kind,
        e.origin,
      ],
    ),
    [
      ['create_api_key', 'cli', 'cuepoint key create', 'api_key', { transport: 'cli', address: null, user_agent: null }],
      ['create_api_key', 'cli', 'cuepoint workspace create', 'api_key', { transport: 'cli', address: null, user_agent: null }],
      ['create_workspace', 'cli', 'cuepoint workspace create', 'workspace', { transport: 'cli', address: null, user_agent: null }],
    ],
  );
  assert.equal(audit.body.audit_events[0].object.id, assistant.key_id);
  assert.equal(audit.body.audit_events[2].object.id, acme.workspace_id);

  server.kill('SIGTERM');
  assert.equal((await server.exited).code, 0);
  assert.doesNotMatch(server.stdout(), /api_key/, 'workspaces exist already: no new key is announced');
});

async function checkSeededLibrary(server: ServerProcess, token: string, seededCount: number): Promise<void> {
  const listed = await http(`${server.url}/v1/videos?limit=100`, { token });
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.ok(listed.body.videos.length >= 50, `${listed.body.videos.length} videos listed`);
  // Archived videos are hidden by default; with them, the list is the whole seeded library.
  const all = await http(`${server.url}/v1/videos?limit=100&archived=include`, { token });
  assert.equal(all.status, 200);
  assert.equal(all.body.pagination.total, seededCount);
  assert.equal(all.body.videos.length, seededCount);
  const statuses = new Set(all.body.videos.map((v: { status: string }) => v.status));
  assert.ok(statuses.has('ready') && statuses.size >= 3, `statuses: ${[...statuses].join(', ')}`);
  for (const video of all.body.videos) {
    assert.ok(video.tags.length > 0, `${video.title} has tags`);
    assert.equal(typeof video.folder_name, 'string', `${video.title} is in a named folder`);
  }
  // The viewing was played through the collection code: the rollups behind the stats are filled.
  const popular = await http(`${server.url}/v1/videos?sort=most_viewed&limit=1`, { token });
  const top = await http(`${server.url}/v1/videos/${popular.body.videos[0].video_id}`, { token });
  assert.ok(top.body.stats.views > 20, JSON.stringify(top.body.stats));
  assert.ok(top.body.stats.unique_viewers <= top.body.stats.views && top.body.stats.unique_viewers > 0);
  assert.ok(top.body.stats.average_engagement > 0 && top.body.stats.average_engagement <= 1);
  // The public channel: a headline, a featured video and a dozen items on show, with visitors.
  const channel = await http(`${server.url}/v1/channel`, { token });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  assert.ok(channel.body.headline && channel.body.dek, JSON.stringify(channel.body));
  assert.equal(channel.body.featured?.shown, true);
  assert.equal(channel.body.showing.length, 12);
  const reasons = new Set(channel.body.items.map((item: { not_shown_reason: string | null }) => item.not_shown_reason));
  assert.deepEqual([...reasons].sort(), ['archived', 'hidden', null].sort());
  assert.ok(channel.body.activity.views > 0 && channel.body.activity.opens > 0, JSON.stringify(channel.body.activity));
  const page = await fetch(`${server.url}${new URL(channel.body.url).pathname}`);
  assert.equal(page.status, 200);
}

/** A ready demo video's watch page would play: its file is a real MP4 of the row's duration, with a poster and a transcript. */
async function checkDemoVideoPlays(server: ServerProcess, token: string, scratch: string): Promise<void> {
  const ready = await http(`${server.url}/v1/videos?status=ready&limit=1`, { token });
  const video = ready.body.videos[0];
  const detail = await http(`${server.url}/v1/videos/${video.video_id}`, { token });
  const media = await fetch(`${server.url}/media/${video.video_id}`);
  assert.equal(media.status, 200);
  assert.equal(media.headers.get('content-type'), 'video/mp4');
  const bytes = Buffer.from(await media.arrayBuffer());
  assert.equal(bytes.length, detail.body.file_size);
  const path = join(scratch, 'demo.mp4');
  writeFileSync(path, bytes);
  const facts = await probeMedia(path);
  assert.deepEqual([facts.videoCodec, facts.audioCodec, facts.width, facts.height], ['AVC', 'AAC', detail.body.width, detail.body.height]);
  // get_video gives the duration to a tenth of a second.
  assert.ok(
    Math.abs((facts.durationSeconds as number) - detail.body.duration_seconds) <= 0.05,
    `${facts.durationSeconds} s played, ${detail.body.duration_seconds} s listed`,
  );
  assert.ok(detail.body.duration_seconds >= 15 && detail.body.duration_seconds <= 61, `${detail.body.duration_seconds} s`);
  const poster = await fetch(detail.body.poster_url.replace(/^https?:\/\/[^/]+/, server.url));
  assert.equal(poster.status, 200);
  assert.equal(poster.headers.get('content-type'), 'image/jpeg');
  const transcript = await http(`${server.url}/v1/videos/${video.video_id}/transcript`, { token });
  assert.equal(transcript.status, 200, JSON.stringify(transcript.body));
  // The clip's captions open with the video's description, as its speaker would.
  assert.ok(transcript.body.text.startsWith(video.description), transcript.body.text);
}

test('the first start of an empty data dir prints its admin key once; a restart prints none', { timeout: 300_000 }, async (t) => {
  const dataDir = tempDir(t);
  const first = await startServer(t, { dataDir });
  const key = await first.firstKey();
  assert.match(key, API_KEY);
  assert.equal((await http(`${first.url}/v1/workspace`, { token: key })).status, 200);
  // Beside the key, the link that makes the owner's account: it asks for the email, and signs them in.
  const [, link] = await first.printed(/Open this link to create your owner account[^\n]*\n\n {2}(\S+)/);
  const ownerPage = `${first.url}${new URL(link as string).pathname}`;
  const form = await fetch(ownerPage);
  assert.equal(form.status, 200);
  assert.match(await form.text(), /<label for="f-email">Email/);
  const made = await fetch(ownerPage, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'owner@example.com', name: 'First Owner', password: 'correct horse battery staple' }),
  });
  assert.equal(made.status, 303, await made.text());
  const dashboard = await fetch(`${first.url}/app`, {
    headers: { cookie: (made.headers.get('set-cookie') as string).split(';')[0] as string },
  });
  assert.match(await dashboard.text(), /Welcome, First Owner/);
  first.kill('SIGTERM');
  assert.equal((await first.exited).code, 0);
  // After exit the output is complete, so counting is exact.
  assert.equal(first.stdout().match(/api_key:/g)?.length, 1, first.stdout());

  const second = await startServer(t, { dataDir });
  assert.equal((await http(`${second.url}/v1/workspace`, { token: key })).status, 200, 'the first key still works');
  second.kill('SIGTERM');
  assert.equal((await second.exited).code, 0);
  assert.doesNotMatch(second.stdout(), /api_key|cue_live_/);
});
