/** What the area's server tests share: an app, a pro workspace, a signed-in person of each role, an API reader. */
import type { TestContext } from 'node:test';
import { startTestApp, type TestAppOptions } from '../../../../../test/helpers/app.ts';
import { type Browser, signIn } from '../../../../../test/helpers/people.ts';

export const PASSWORD = 'correct horse battery staple';
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;

export async function schedulingSetUp(t: TestContext, options: TestAppOptions = {}) {
  const harness = await startTestApp(t, options);
  const ws = await harness.workspace();
  const people = {} as Record<(typeof ROLES)[number], Browser>;
  for (const role of ROLES) {
    const member = await ws.addMember({ role, password: PASSWORD });
    people[role] = await signIn(harness.app, member.email, PASSWORD);
  }
  const api = (path: string) => harness.request('GET', `/v1${path}`, { token: ws.key });
  return { harness, ws, people, api };
}

/** The first weekday (Monday to Friday) at least `after` days from today, as YYYY-MM-DD (UTC). */
export function weekdayAhead(after = 2): string {
  const at = new Date(Date.now() + after * 86_400_000);
  while (at.getUTCDay() === 0 || at.getUTCDay() === 6) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}
