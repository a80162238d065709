/**
 * Password hashes: argon2id through @node-rs/argon2, a native binding that hashes on libuv's thread
 * pool, so the event loop never waits on it. Parameters are OWASP's first argon2id configuration
 * (19 MiB, 2 passes, 1 lane), measured on the 2-core reference machine at 16–18 ms a check (docs/people.md).
 *
 * At most `cores - 1` hashes run at once (at least one): a burst of sign-ins queues here instead of
 * taking every core, so other requests keep one, and memory stays at 19 MiB per hash in flight.
 */
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// `algorithm: 2` is the binding's const enum Algorithm.Argon2id, which type stripping cannot import.
export const PASSWORD_HASH_PARAMETERS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const MAX_IN_FLIGHT = Math.max(1, availableParallelism() - 1);
let inFlight = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, PASSWORD_HASH_PARAMETERS));
}

/** Whether `password` matches `stored` (a PHC string). A malformed stored hash matches nothing. */
export function passwordMatches(stored: string, password: string): Promise<boolean> {
  return limited(() => verify(stored, password).catch(() => false));
}

let decoy: Promise<string> | undefined;

/**
 * Spends what checking a real password spends, for an email with no account (or no password), so
 * the answer takes as long whether or not the account exists.
 */
export async function spendPasswordCheck(password: string): Promise<false> {
  decoy ??= hash('no account has this password', PASSWORD_HASH_PARAMETERS);
  await passwordMatches(await decoy, password);
  return false;
}
