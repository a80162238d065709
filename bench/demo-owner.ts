/**
 * The demo as a person first meets it: `cuepoint seed --demo` into a fresh data dir (the command a
 * person runs), the service started on it, and the owner's account made from the seed's link and
 * signed in. Shared by the dashboard benchmark and the dashboard's screenshots for the docs.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { ServiceProcess } from './service-process.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
export const DEMO_OWNER = { email: 'owner@example.com', name: 'Olivia Owner', password: 'a long and unremarkable passphrase' } as const;
export const OWNER_LINK = /(https?:\/\/\S+\/invitations\/[\w-]+)/;
const SEEDED = /into workspace ([0-9a-f-]{36})\.\s+Admin API key \(shown once\): (cue_live_[0-9A-Za-z]+)/;

/** Seeds the demo into `dataDir`; its workspace, admin key and the owner's invitation link. */
export function seedDemo(dataDir: string): { workspaceId: string; apiKey: string; ownerLink: string } {
  const seeded = spawnSync(process.execPath, ['src/main.ts', 'seed', '--demo'], {
    cwd: REPO_ROOT,
    env: { ...process.env, CUEPOINT_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const workspace = SEEDED.exec(seeded.stdout);
  const link = OWNER_LINK.exec(seeded.stdout);
  if (seeded.status !== 0 || !workspace || !link) throw new Error(`seed --demo failed:\n${seeded.stdout}\n${seeded.stderr}`);
  return { workspaceId: workspace[1] as string, apiKey: workspace[2] as string, ownerLink: link[1] as string };
}

/** A form post as the sign-in and invitation pages' own forms send it (our origin, same site). */
function formPost(origin: string, fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields),
  };
}

/** Signs a person in with their password; the session cookie ("name=value"). */
export async function signInWithPassword(serviceUrl: string, email: string, password: string): Promise<string> {
  const signedIn = await fetch(`${serviceUrl}/sign-in`, formPost(serviceUrl, { email, password }));
  const cookie = signedIn.headers.get('set-cookie')?.split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return cookie;
}

/** Makes the owner's account from their invitation link and signs them in; the session cookie ("name=value"). */
export async function signInDemoOwner(service: Pick<ServiceProcess, 'url'>, ownerLink: string): Promise<string> {
  const { email, name, password } = DEMO_OWNER;
  const made = await fetch(`${service.url}${new URL(ownerLink).pathname}`, formPost(service.url, { email, name, password }));
  if (made.status !== 303) throw new Error(`could not make the owner's account: ${made.status} ${await made.text()}`);
  return signInWithPassword(service.url, email, password);
}
