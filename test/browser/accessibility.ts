/**
 * axe-core (through @axe-core/playwright) on a page as a person sees it: every WCAG 2.x A and AA rule.
 * The pages' policy forbids eval, which axe needs to run, so the context that audits is opened with
 * bypassCSP; the policy itself is tested elsewhere.
 */
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function assertAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const problems = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(problems, [], `${what} has accessibility violations`);
}
