/**
 * /app/search: `search` across everything the person's role may read, for the `q` the top bar's
 * search box (or this page's own) sends. One operation, one call.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { type SearchAnswer, searchForm, searchResults } from './search-view.ts';

export function registerSearchPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/search', async (ctx) => {
    const q = (ctx.query.q ?? '').trim();
    if (!q) {
      return ctx.page(
        'Search',
        `<h1>Search</h1>${searchForm('')}<p class="empty">Type what you are looking for. Press <kbd>/</kbd> on any page to search from the top bar.</p>`,
      );
    }
    const answer = await ctx.call<SearchAnswer>('search', { q, limit: 50 });
    if (!answer.ok) {
      if (answer.status !== 400) return ctx.refused(answer);
      const details = answer.error.details as { errors?: { problem?: string }[] } | undefined;
      const problem = details?.errors?.[0]?.problem;
      return ctx.page('Search', `<h1>Search</h1>${searchForm(q, problem ? `The search ${problem}.` : answer.error.message)}`, {
        status: 400,
      });
    }
    return ctx.page(`${q} · Search`, `<h1>Search</h1>${searchForm(q)}${searchResults(answer.body)}`);
  });
}
