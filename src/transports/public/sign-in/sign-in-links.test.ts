/**
 * Emailed sign-in links (issue 27): the way in without a password and the way back after forgetting
 * it. The answer is the same for any address; a link works once, for 15 minutes, and only after a
 * press (mail scanners open links); at most 3 a quarter-hour reach one account.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { browser } from '../../../../test/helpers/people.ts';

/** The sign-in links mailed to `email`, newest first, once queued (it happens just after the answer). */
async function mailedLinks(harness: TestApp, email: string, atLeast: number): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await harness.database.db
      .selectFrom('email_outbox')
      .select(['link', 'purpose', 'workspace_id'])
      .where('to_address', '=', email)
      .where('purpose', '=', 'sign_in_link')
      .orderBy('created_at', 'desc')
      .execute();
    if (rows.length >= atLeast) {
      assert.ok(rows.every((row) => row.workspace_id === null));
      return rows.map((row) => new URL(row.link as string).pathname);
    }
    await sleep(20);
  }
  throw new Error(`fewer than ${atLeast} sign-in links reached ${email}`);
}

test('a person who forgot their password gets a link, presses Sign in, and lands on their account page', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addMember({ name: 'Ada', password: 'correct horse battery staple' });
  const person = browser(harness.app);
  const ask = await person.get('/sign-in/link');
  assert.match(ask.body, /<button type="submit">Email me a sign-in link<\/button>/);
  const sent = await person.post('/sign-in/link', { email: ada.email.toUpperCase() });
  assert.equal(sent.statusCode, 200);
  assert.match(sent.body, /If an account uses <strong>.*<\/strong>, a sign-in link is on its way/);
  const [link] = await mailedLinks(harness, ada.email, 1);

  // Opening the link (as a mail scanner would) uses nothing up.
  const opened = await person.get(link as string);
  assert.match(opened.body, /Continue as <strong>/);
  assert.equal((await browser(harness.app).get(link as string)).statusCode, 200);
  const used = await person.post(link as string, {});
  assert.equal(used.statusCode, 303);
  assert.equal(used.headers.location, '/app/account?signed_in_by_link=1');
  const account = await person.get('/app/account?signed_in_by_link=1');
  assert.match(account.body, /You are signed in\. If you forgot your password, set a new one below\./);
  assert.equal((await browser(harness.app).post(link as string, {})).statusCode, 404, 'once only');
});

test('an address with no account gets the same answer and no mail; links expire; three a quarter-hour at most', async (t) => {
  let now = new Date();
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const ada = await ws.addMember();
  const ghost = `ghost-${ada.userId}@example.com`;
  const forGhost = await browser(harness.app).post('/sign-in/link', { email: ghost });
  const forAda = await browser(harness.app).post('/sign-in/link', { email: ada.email });
  assert.equal(forGhost.body.replace(ghost, 'X'), forAda.body.replace(ada.email, 'X'));
  for (let i = 0; i < 4; i++) await browser(harness.app).post('/sign-in/link', { email: ada.email });
  await sleep(300);
  const links = await mailedLinks(harness, ada.email, 3);
  assert.equal(links.length, 3, 'the fourth and fifth asks in the quarter-hour send nothing');
  const ghostMail = await harness.database.db.selectFrom('email_outbox').select('id').where('to_address', '=', ghost).execute();
  assert.equal(ghostMail.length, 0);
  now = new Date(now.getTime() + 15 * 60_000 + 1000);
  assert.equal((await browser(harness.app).post(links[0] as string, {})).statusCode, 404, 'expired');
  const bad = await browser(harness.app).post('/sign-in/link', { email: 'not an address' });
  assert.equal(bad.statusCode, 400);
});
