/**
 * The API keys tab: GET /app/settings/api-keys (list_api_keys), POST /app/settings/api-keys
 * (create_api_key: the secret is shown once, on the page that answers the post, never stored by the
 * browser), POST …/{key_id}/revoke (delete_api_key, confirmed in a dialog).
 */
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../../../core/scopes.ts';
import { type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type ApiKeyRow, type ApiKeysView, apiKeysContent, secretOnce } from './api-keys-view.ts';
import { type Problems, problemsOf } from './form-fields.ts';
import { doneNotice, settingsPage } from './settings-frame.ts';

const PAGE = '/app/settings/api-keys';
const NOTICES = { revoked: 'Key revoked. Requests with it are refused from now on.' };

export function registerApiKeysSettings(scope: FastifyInstance, env: DashboardEnv): void {
  async function render(ctx: PageContext, options: { mint?: Partial<ApiKeysView['mint']>; alert?: string; status?: number } = {}) {
    const [keys, workspace] = await Promise.all([
      ctx.call<{ api_keys: ApiKeyRow[] }>('list_api_keys', { limit: 100 }),
      ctx.call<{ settings: { timezone: string } }>('get_workspace', {}),
    ]);
    if (!keys.ok) return ctx.refused(keys);
    const view: ApiKeysView = {
      csrf: ctx.csrf,
      keys: keys.body.api_keys,
      offered: SCOPES.filter((s) => ctx.may(s)),
      timeZone: workspace.ok ? workspace.body.settings.timezone : 'UTC',
      mint: { name: '', scopes: new Set(['videos:read', 'analytics:read']), problems: {}, ...options.mint },
    };
    return settingsPage(ctx, 'api-keys', 'API keys', apiKeysContent(view), {
      status: options.status,
      alert: options.alert,
      notice: doneNotice(ctx, NOTICES),
    });
  }

  dashboardGet(scope, env, PAGE, (ctx) => render(ctx));

  dashboardPost(scope, env, PAGE, async (ctx) => {
    const name = ctx.form.name ?? '';
    const scopes = ctx.formAll('scope');
    const mint = { name, scopes: new Set(scopes) };
    // With no scope the API would mint a read key; a person who ticked nothing more likely forgot.
    if (scopes.length === 0) return render(ctx, { mint: { ...mint, problems: { scope: 'Choose at least one scope.' } }, status: 400 });
    const answer = await ctx.call<{ key: string; name: string; prefix: string }>('create_api_key', { name, scope: scopes });
    if (answer.ok) {
      return settingsPage(
        ctx,
        'api-keys',
        'New API key',
        secretOnce({
          heading: `Your new key: ${answer.body.name}`,
          what: 'Send it as “Authorization: Bearer …” with each request. Keep it out of code you share and out of the browser.',
          secret: answer.body.key,
          back: PAGE,
          backLabel: 'Done: back to API keys',
        }),
        { status: 201, scripts: ['settings-copy.js'], noStore: true },
      );
    }
    if (answer.status === 400 || answer.status === 403) {
      const problems: Problems = answer.status === 400 ? problemsOf(answer, ['name', 'scope']) : { scope: answer.error.message };
      return render(ctx, { mint: { ...mint, problems }, status: answer.status });
    }
    return ctx.refused(answer);
  });

  dashboardPost(scope, env, `${PAGE}/:key_id/revoke`, async (ctx) => {
    const keyId = (ctx.request.params as { key_id: string }).key_id;
    const answer = await ctx.call('delete_api_key', { key_id: keyId });
    if (answer.ok) return ctx.redirect(`${PAGE}?done=revoked`);
    if (answer.status === 409 || answer.status === 403 || answer.status === 404)
      return render(ctx, { alert: answer.error.message, status: answer.status });
    return ctx.refused(answer);
  });
}
