/** `--owner-email`: an address an invitation can be sent to, or a usage error naming the problem. */
import { UsageError } from './usage-error.ts';

const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function ownerEmailOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const email = value.trim();
  if (email.length > 254 || !ADDRESS.test(email))
    throw new UsageError(`--owner-email must be an email address, like owner@example.com (got "${value}")`);
  return email.toLowerCase();
}
