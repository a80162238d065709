/**
 * axe-core (through @axe-core/playwright) on a page as a person sees it: every WCAG 2.x A and AA rule.
 * The pages' policy forbids eval, which axe needs to run, so the context that audits is opened with
 * bypassCSP; the policy itself is tested elsewhere.
 *
 * Legacy mode: axe.run in the page, with axe injected into each of its frames, instead of a partial
 * run per frame finished in a blank page that AxeBuilder opens for every audit. Legacy mode skips
 * frames of another origin, and ours have none (the only frame an audited page holds is the channel
 * page's preview, on our origin); the blank page cost a third of the CPU of the dashboard's Chromium
 * tests (three of them, one worker, back to back: 86.5 CPU s, 63.6 and 71.7 in legacy mode, 59.0
 * with no audit at all).
 */
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function assertAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .setLegacyMode(true)
    .analyze();
  const problems = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(problems, [], `${what} has accessibility violations`);
}
