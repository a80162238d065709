/**
 * The Connected assistants tab (issue 29): GET /app/settings/assistants lists the keys list_api_keys
 * answers bound to the MCP endpoint (a connected assistant's), POST …/{key_id}/disconnect ends one
 * with delete_api_key, confirmed in a dialog. The same operations as the API keys tab, so the same
 * rules hold: owners and admins only.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import type { ApiKeyRow } from './api-keys-view.ts';
import { ASSISTANTS_PAGE, assistantsContent } from './assistants-view.ts';
import { doneNotice, settingsPage } from './settings-frame.ts';

const NOTICES = { disconnected: 'Assistant disconnected. It can no longer reach this workspace.' };

export function registerAssistantsSettings(scope: FastifyInstance, env: DashboardEnv): void {
  async function render(ctx: PageContext, options: { alert?: string; status?: number } = {}) {
    const [keys, workspace] = await Promise.all([
      ctx.call<{ api_keys: ApiKeyRow[] }>('list_api_keys', { limit: 100 }),
      ctx.call<{ settings: { timezone: string } }>('get_workspace', {}),
    ]);
    if (!keys.ok) return ctx.refused(keys);
    const mcpUrl = `${ctx.deps.publicUrl}/mcp`;
    const content = assistantsContent({
      csrf: ctx.csrf,
      connected: keys.body.api_keys.filter((key) => key.resource === mcpUrl),
      mcpUrl,
      timeZone: workspace.ok ? workspace.body.settings.timezone : 'UTC',
    });
    return settingsPage(ctx, 'assistants', 'Connected assistants', content, {
      status: options.status,
      alert: options.alert,
      notice: doneNotice(ctx, NOTICES),
      scripts: ['settings-copy.js'],
    });
  }

  dashboardGet(scope, env, ASSISTANTS_PAGE, (ctx) => render(ctx));

  dashboardPost(scope, env, `${ASSISTANTS_PAGE}/:key_id/disconnect`, async (ctx) => {
    const keyId = (ctx.request.params as { key_id: string }).key_id;
    const answer = await ctx.call('delete_api_key', { key_id: keyId });
    if (answer.ok) return ctx.redirect(`${ASSISTANTS_PAGE}?done=disconnected`);
    if (answer.status === 409 || answer.status === 403 || answer.status === 404)
      return render(ctx, { alert: answer.error.message, status: answer.status });
    return ctx.refused(answer);
  });
}
