/**
 * How a dashboard page or form is declared, once: the session is read, a person signed out is sent to
 * /sign-in and back, a person with no workspace to the home page, a form post must come from our own
 * origin with the session's CSRF token, and the handler gets a context whose `call` runs a catalog
 * operation as the person through the one pipeline (so a page shows and does exactly what the API
 * would, scopes and masking included). Pages never query the database themselves.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../../../core/pipeline/principal.ts';
import { currentQueryTally, serverTimingOf, withQueryTally } from '../../../../core/query-tally.ts';
import { isManager } from '../../../../core/roles.ts';
import type { Scope } from '../../../../core/scopes.ts';
import { csrfTokenMatches } from '../../../../domains/people/index.ts';
import { FORM_BODY_LIMIT, formValues } from '../../http/form-body.ts';
import { escapeHtml } from '../../http/page-parts.ts';
import { isFromOwnOrigin } from '../../http/same-origin.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { DASHBOARD_HEADERS, dashboardPage } from '../frame/dashboard-page.ts';
import { callOperation, type DashboardSession, dashboardSession } from './dashboard-session.ts';
import { refusedForm } from './refused-form.ts';

/** What the pages of the dashboard are registered with. */
export interface DashboardEnv {
  deps: PublicSurfaceDeps;
  cookies: SessionCookies;
}

/** An operation's answer as a page reads it. */
export type Answer<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; error: { code: string; message: string; details?: unknown }; headers: Record<string, string> };

export interface PageContext {
  request: FastifyRequest;
  reply: FastifyReply;
  deps: PublicSurfaceDeps;
  session: DashboardSession & { principal: Principal };
  principal: Principal;
  /** The token every form of the page carries (`csrfField()` writes it). */
  csrf: string;
  /** The query string's values (the first of each). */
  query: Record<string, string>;
  /** The form's fields on a POST (the first of each), else empty. */
  form: Record<string, string>;
  /** Every value a repeated form field had (checkboxes of tags, scopes). */
  formAll(name: string): string[];
  /** Whether the person's role in this workspace holds `scope` (controls not offered are refused by the server anyway). */
  may(scope: string): boolean;
  /** Owners and admins. */
  manager: boolean;
  call<T>(name: string, input: Record<string, unknown>): Promise<Answer<T>>;
  /** The page in the dashboard's frame, with its status (200) and its own scripts (asset names). */
  page(title: string, content: string, options?: { status?: number; scripts?: string[] }): Promise<FastifyReply>;
  notFound(heading: string, text: string): Promise<FastifyReply>;
  /** An operation said no: its own words, with its status. */
  refused(answer: Answer<unknown> & { ok: false }): Promise<FastifyReply>;
  /** After a write: the next page, told what happened (`?done=…`). */
  redirect(location: string): FastifyReply;
}

type Handler = (context: PageContext) => Promise<FastifyReply>;

export function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

function firstValues(source: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (!source || typeof source !== 'object') return values;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') values[key] = first;
  }
  return values;
}

function contextFor(
  env: DashboardEnv,
  request: FastifyRequest,
  reply: FastifyReply,
  session: DashboardSession & { principal: Principal },
): PageContext {
  const { deps } = env;
  const principal = session.principal;
  const frame = () => frameOf(deps, session, request.url);
  const context: PageContext = {
    request,
    reply,
    deps,
    session,
    principal,
    csrf: session.csrf,
    query: firstValues(request.query),
    form: request.method === 'POST' ? firstValues(request.body) : {},
    formAll: (name) => (request.method === 'POST' ? formValues(request.body, name) : []),
    may: (scope) => principal.scopes.has(scope as Scope),
    manager: isManager(principal.role),
    async call<T>(name: string, input: Record<string, unknown>): Promise<Answer<T>> {
      const outcome = await callOperation(deps, request, principal, name, input);
      if (outcome.status < 400) return { ok: true, status: outcome.status, body: outcome.body as T };
      const error = (outcome.body as { error?: { code: string; message: string; details?: unknown } })?.error;
      return {
        ok: false,
        status: outcome.status,
        error: error ?? { code: 'internal_error', message: 'That did not work.' },
        headers: outcome.headers as Record<string, string>,
      };
    },
    async page(title, content, options = {}) {
      const frameHtml = await frame();
      const tally = currentQueryTally();
      if (tally) reply.header('Server-Timing', serverTimingOf(tally));
      return reply
        .code(options.status ?? 200)
        .headers(DASHBOARD_HEADERS)
        .send(dashboardPage(title, frameHtml, content, { scripts: options.scripts }));
    },
    async notFound(heading, text) {
      return context.page('Not found', `<h1>${escapeHtml(heading)}</h1><p class="lede">${escapeHtml(text)}</p>`, { status: 404 });
    },
    async refused(answer) {
      reply.headers(answer.headers);
      return context.page(
        'Not done',
        `<h1>Not done</h1><p class="alert" role="alert">${escapeHtml(answer.error.message)}</p><p><a href="/app">Back to the dashboard</a></p>`,
        { status: answer.status },
      );
    },
    redirect(location) {
      return reply.redirect(location, 303);
    },
  };
  return context;
}

/** What a person who belongs to no workspace (removed from their last one) sees on every page. */
async function noWorkspace(
  env: DashboardEnv,
  request: FastifyRequest,
  reply: FastifyReply,
  session: DashboardSession,
): Promise<FastifyReply> {
  const content =
    '<h1>No workspace yet</h1><p class="lede">You do not belong to any workspace now. Ask an owner to invite you again; ' +
    'your account and its sign-in methods are kept (<a href="/app/account">Account</a>).</p>';
  return reply
    .code(200)
    .headers(DASHBOARD_HEADERS)
    .send(dashboardPage('Dashboard', await frameOf(env.deps, session, request.url), content));
}

/** A page: GET `path`, signed in and working in a workspace. */
export function dashboardGet(scope: FastifyInstance, env: DashboardEnv, path: string, handler: Handler): void {
  scope.get(path, async (request, reply) => {
    const session = await dashboardSession(request, env.deps, env.cookies);
    // The path stays readable (`next=/app/videos`); a query or anything else is escaped.
    if (!session) return reply.redirect(`/sign-in?next=${encodeURIComponent(request.url).replaceAll('%2F', '/')}`, 303);
    if (!session.principal) return noWorkspace(env, request, reply, session);
    const context = contextFor(env, request, reply, session as DashboardSession & { principal: Principal });
    // The page's statements are counted from here (the session's lookup is the same on every page).
    return withQueryTally(() => handler(context));
  });
}

/** A form's target: POST `path`, from our own origin with the session's CSRF token. */
export function dashboardPost(
  scope: FastifyInstance,
  env: DashboardEnv,
  path: string,
  handler: Handler,
  bodyLimit = FORM_BODY_LIMIT,
): void {
  scope.post(path, { bodyLimit }, async (request, reply) => {
    const session = await dashboardSession(request, env.deps, env.cookies);
    if (!session) return reply.redirect('/sign-in?next=/app', 303);
    if (!session.principal) return reply.redirect('/app', 303);
    const sent = (request.body as Record<string, unknown> | undefined)?.csrf;
    if (!isFromOwnOrigin(request, env.deps.publicUrl) || !csrfTokenMatches(env.deps.secret, session.person.sessionId, sent)) {
      return refusedForm(reply);
    }
    return handler(contextFor(env, request, reply, session as DashboardSession & { principal: Principal }));
  });
}
