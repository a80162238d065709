/**
 * The Webhooks tab: GET /app/settings/webhooks (list_webhook_endpoints, and the form that adds one:
 * create_webhook_endpoint, whose signing secret is shown once on the page that answers), and an
 * endpoint's page GET /app/settings/webhooks/{id} with its edit form (update_webhook_endpoint), "Send
 * test event" (test_webhook_endpoint), "Rotate secret" (update_webhook_endpoint rotate_secret, shown
 * once), "Delete endpoint" (delete_webhook_endpoint, confirmed) and its deliveries log
 * (list_webhook_deliveries, with retry_webhook_delivery).
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDateTime } from '../kit/formats.ts';
import { type Answer, csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { secretOnce } from './api-keys-view.ts';
import { DELIVERY_STATUSES, type DeliveryRow, deliveriesSection } from './deliveries-view.ts';
import { type Problems, problemsOf } from './form-fields.ts';
import { rowConfirm } from './row-confirm.ts';
import { doneNotice, settingsPage } from './settings-frame.ts';
import { eventsFromForm, subscribableEvents } from './webhook-events.ts';
import { type EndpointFormValues, type EndpointRow, endpointForm, endpointStatus, endpointsTable } from './webhooks-view.ts';

const PAGE = '/app/settings/webhooks';
const FIELDS = ['name', 'url', 'events', 'active'];
const NOTICES = {
  saved: 'Endpoint saved.',
  deleted: 'Endpoint deleted, with its delivery history.',
  retried: 'Queued to be sent again now. Its new attempt appears below in a moment.',
};
const SECRET_WORDS =
  'Verify the webhook-signature header of each delivery with it (Standard Webhooks). Store it where your receiving code can read it.';

type Listed = Answer<{ webhook_endpoints: EndpointRow[] }>;

export function registerWebhooksSettings(scope: FastifyInstance, env: DashboardEnv): void {
  const timeZoneOf = async (ctx: PageContext) => {
    const answer = await ctx.call<{ settings: { timezone: string } }>('get_workspace', {});
    return answer.ok ? answer.body.settings.timezone : 'UTC';
  };
  const endpointIdOf = (ctx: PageContext) => (ctx.request.params as { endpoint_id: string }).endpoint_id;
  const valuesFromForm = (ctx: PageContext): EndpointFormValues => ({
    name: ctx.form.name ?? '',
    url: (ctx.form.url ?? '').trim(),
    events: new Set(ctx.formAll('events')),
    active: ctx.form.active === 'true',
  });

  /** A plan without webhooks: said plainly, with nothing to click that would be refused. */
  function withoutWebhooks(ctx: PageContext, answer: Answer<unknown> & { ok: false }) {
    if (answer.error.code !== 'plan_limit') return ctx.refused(answer);
    return settingsPage(
      ctx,
      'webhooks',
      'Webhooks',
      `<section class="card"><h2>Webhooks are not in your plan</h2><p>${escapeHtml(answer.error.message)}</p></section>`,
      { status: answer.status },
    );
  }

  async function renderList(ctx: PageContext, options: { values?: EndpointFormValues; problems?: Problems; status?: number } = {}) {
    const [listed, timeZone] = await Promise.all([ctx.call('list_webhook_endpoints', { limit: 100 }) as Promise<Listed>, timeZoneOf(ctx)]);
    if (!listed.ok) return withoutWebhooks(ctx, listed);
    const content =
      '<section aria-labelledby="endpoints-heading" class="card">' +
      `<h2 id="endpoints-heading">Endpoints <span class="count">${listed.body.webhook_endpoints.length}</span></h2>` +
      endpointsTable(listed.body.webhook_endpoints, timeZone) +
      '</section>' +
      endpointForm({
        csrf: ctx.csrf,
        action: PAGE,
        heading: 'Add an endpoint',
        submit: 'Add endpoint',
        values: options.values ?? { name: '', url: '', events: new Set(['*']), active: true },
        problems: options.problems ?? {},
        events: subscribableEvents(ctx.deps),
        withActive: false,
      });
    return settingsPage(ctx, 'webhooks', 'Webhooks', content, { status: options.status, notice: doneNotice(ctx, NOTICES) });
  }

  async function renderEndpoint(
    ctx: PageContext,
    endpointId: string,
    options: { values?: EndpointFormValues; problems?: Problems; status?: number; alert?: string } = {},
  ) {
    const status = (DELIVERY_STATUSES as readonly string[]).includes(ctx.query.status ?? '') ? (ctx.query.status as string) : '';
    const cursor = ctx.query.cursor;
    const [listed, deliveries, timeZone] = await Promise.all([
      ctx.call('list_webhook_endpoints', { limit: 100 }) as Promise<Listed>,
      ctx.call<{ deliveries: DeliveryRow[]; pagination: { total: number; next_cursor: string | null } }>('list_webhook_deliveries', {
        endpoint_id: endpointId,
        limit: 25,
        ...(status && { status }),
        ...(cursor && { cursor }),
      }),
      timeZoneOf(ctx),
    ]);
    if (!listed.ok) return withoutWebhooks(ctx, listed);
    const endpoint = listed.body.webhook_endpoints.find((e) => e.endpoint_id === endpointId);
    if (!endpoint || !deliveries.ok)
      return ctx.notFound('No such endpoint', 'This webhook endpoint does not exist in this workspace, or it was deleted.');
    const values = options.values ?? { name: endpoint.name, url: endpoint.url, events: new Set(endpoint.events), active: endpoint.active };
    const content =
      `<p class="crumbs"><a href="${PAGE}">Webhooks</a> / ${escapeHtml(endpoint.name)}</p>` +
      '<section aria-labelledby="endpoint-heading" class="card">' +
      `<div class="title-row"><h2 id="endpoint-heading">${escapeHtml(endpoint.name)} ${endpointStatus(endpoint)}</h2>` +
      '<div class="actions">' +
      `<form method="post" action="${PAGE}/${endpointId}/test">${csrfField(ctx.csrf)}<button type="submit" class="primary">Send test event</button></form>` +
      `<form method="post" action="${PAGE}/${endpointId}/rotate">${csrfField(ctx.csrf)}<button type="submit">Rotate secret</button></form>` +
      rowConfirm({
        id: endpointId,
        label: 'Delete endpoint',
        accessibleLabel: `Delete endpoint ${endpoint.name}`,
        heading: `Delete ${endpoint.name}?`,
        consequence:
          'No more events are sent to it, deliveries waiting are dropped, and its delivery history is deleted. To stop for a while, pause it instead.',
        confirm: 'Delete',
        action: `${PAGE}/${endpointId}/delete`,
        csrf: ctx.csrf,
        page: `${PAGE}/${endpointId}`,
      }) +
      '</div></div>' +
      `<p class="break"><code>${escapeHtml(endpoint.url)}</code></p>` +
      (endpoint.disabled_reason ? `<p class="alert">${escapeHtml(endpoint.disabled_reason)}</p>` : '') +
      (endpoint.previous_secret_expires_at
        ? `<p class="hint">After the last rotation, deliveries are signed with the previous secret too until ${escapeHtml(formatDateTime(endpoint.previous_secret_expires_at, timeZone))}.</p>`
        : '') +
      '</section>' +
      deliveriesSection({
        csrf: ctx.csrf,
        endpointId,
        deliveries: deliveries.body.deliveries,
        total: deliveries.body.pagination.total,
        status,
        nextCursor: deliveries.body.pagination.next_cursor,
        paged: Boolean(cursor),
        timeZone,
      }) +
      endpointForm({
        csrf: ctx.csrf,
        action: `${PAGE}/${endpointId}`,
        heading: 'Edit endpoint',
        submit: 'Save endpoint',
        values,
        problems: options.problems ?? {},
        events: subscribableEvents(ctx.deps),
        withActive: true,
      });
    return settingsPage(ctx, 'webhooks', endpoint.name, content, {
      status: options.status,
      alert: options.alert,
      notice: testNotice(ctx) || doneNotice(ctx, NOTICES),
    });
  }

  dashboardGet(scope, env, PAGE, (ctx) => renderList(ctx));

  dashboardPost(scope, env, PAGE, async (ctx) => {
    const values = valuesFromForm(ctx);
    const events = eventsFromForm([...values.events]);
    if (events.length === 0)
      return renderList(ctx, { values, problems: { events: 'Choose at least one event, or All events.' }, status: 400 });
    const answer = await ctx.call<{ endpoint_id: string; name: string; secret: string }>('create_webhook_endpoint', {
      name: values.name,
      url: values.url,
      events,
    });
    if (answer.ok) return secretPage(ctx, answer.body.endpoint_id, `Endpoint added: ${answer.body.name}`, answer.body.secret);
    if (answer.status === 400) return renderList(ctx, { values, problems: problemsOf(answer, FIELDS), status: 400 });
    return ctx.refused(answer);
  });

  dashboardGet(scope, env, `${PAGE}/:endpoint_id`, (ctx) => renderEndpoint(ctx, endpointIdOf(ctx)));

  dashboardPost(scope, env, `${PAGE}/:endpoint_id`, async (ctx) => {
    const endpointId = endpointIdOf(ctx);
    const values = valuesFromForm(ctx);
    const events = eventsFromForm([...values.events]);
    if (events.length === 0)
      return renderEndpoint(ctx, endpointId, { values, problems: { events: 'Choose at least one event, or All events.' }, status: 400 });
    const answer = await ctx.call('update_webhook_endpoint', {
      endpoint_id: endpointId,
      name: values.name,
      url: values.url,
      events,
      active: values.active,
    });
    if (answer.ok) return ctx.redirect(`${PAGE}/${endpointId}?done=saved`);
    if (answer.status === 400) return renderEndpoint(ctx, endpointId, { values, problems: problemsOf(answer, FIELDS), status: 400 });
    return ctx.refused(answer);
  });

  dashboardPost(scope, env, `${PAGE}/:endpoint_id/test`, async (ctx) => {
    const endpointId = endpointIdOf(ctx);
    const answer = await ctx.call<{ succeeded: boolean; status_code: number | null; duration_ms: number; error: string | null }>(
      'test_webhook_endpoint',
      { endpoint_id: endpointId },
    );
    if (!answer.ok)
      return answer.status === 409 ? renderEndpoint(ctx, endpointId, { alert: answer.error.message, status: 409 }) : ctx.refused(answer);
    const result = answer.body;
    const query = new URLSearchParams({
      done: 'tested',
      ok: result.succeeded ? '1' : '0',
      ms: String(result.duration_ms),
      ...(result.status_code !== null && { code: String(result.status_code) }),
      ...(result.error && { error: result.error.slice(0, 300) }),
    });
    return ctx.redirect(`${PAGE}/${endpointId}?${query.toString()}`);
  });

  dashboardPost(scope, env, `${PAGE}/:endpoint_id/rotate`, async (ctx) => {
    const endpointId = endpointIdOf(ctx);
    const answer = await ctx.call<{ name: string; secret?: string }>('update_webhook_endpoint', {
      endpoint_id: endpointId,
      rotate_secret: true,
    });
    if (!answer.ok) return ctx.refused(answer);
    return secretPage(
      ctx,
      endpointId,
      `New signing secret for ${answer.body.name}`,
      answer.body.secret ?? '',
      'For the next 24 hours each delivery is signed with both the new and the previous secret, so you can switch without missing one.',
    );
  });

  dashboardPost(scope, env, `${PAGE}/:endpoint_id/delete`, async (ctx) => {
    const answer = await ctx.call('delete_webhook_endpoint', { endpoint_id: endpointIdOf(ctx) });
    if (!answer.ok) return ctx.refused(answer);
    return ctx.redirect(`${PAGE}?done=deleted`);
  });

  dashboardPost(scope, env, `${PAGE}/:endpoint_id/deliveries/:delivery_id/retry`, async (ctx) => {
    const endpointId = endpointIdOf(ctx);
    const deliveryId = (ctx.request.params as { delivery_id: string }).delivery_id;
    const answer = await ctx.call('retry_webhook_delivery', { endpoint_id: endpointId, delivery_id: deliveryId });
    if (answer.ok) return ctx.redirect(`${PAGE}/${endpointId}?done=retried`);
    if (answer.status === 409) return renderEndpoint(ctx, endpointId, { alert: answer.error.message, status: 409 });
    return ctx.refused(answer);
  });
}

function secretPage(ctx: PageContext, endpointId: string, heading: string, secret: string, extra = '') {
  return settingsPage(
    ctx,
    'webhooks',
    'Signing secret',
    secretOnce({
      heading,
      what: `${SECRET_WORDS}${extra ? ` ${extra}` : ''}`,
      secret,
      back: `${PAGE}/${endpointId}`,
      backLabel: 'Done: go to the endpoint',
    }),
    { status: 201, scripts: ['settings-copy.js'], noStore: true },
  );
}

/** The outcome of "Send test event", carried in the redirect's query (the attempt itself is in the log). */
function testNotice(ctx: PageContext): string {
  if (ctx.query.done !== 'tested') return '';
  const ms = Number(ctx.query.ms ?? 0);
  if (ctx.query.ok === '1') {
    return `<p class="notice" role="status">Test event delivered: the endpoint answered HTTP ${escapeHtml(ctx.query.code ?? '')} in ${Number.isFinite(ms) ? ms : 0} ms.</p>`;
  }
  const answered = ctx.query.code ? `It answered HTTP ${escapeHtml(ctx.query.code)}` : 'No answer came';
  return `<p class="alert" role="alert">The test event was not delivered. ${answered} after ${Number.isFinite(ms) ? ms : 0} ms${ctx.query.error ? `: ${escapeHtml(ctx.query.error)}` : '.'}</p>`;
}
