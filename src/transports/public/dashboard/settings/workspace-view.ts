/**
 * The Workspace tab's HTML: the settings form (owners and admins; others read the same facts), the
 * plan with its usage, and the access the person has here. The facts are get_workspace's answer.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatDate } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import { formAlert, inputField, type Problems, selectField, textareaField } from './form-fields.ts';

/** get_workspace's answer, as this page reads it. */
export interface WorkspaceFacts {
  workspace_id: string;
  name: string;
  plan: string;
  entitlements: Record<string, boolean>;
  limits: { videos_max: number | null; requests_per_minute: number };
  usage: { videos: number; videos_ready: number; videos_archived: number; storage_bytes: number; api_keys: number };
  settings: {
    mask_pii: boolean;
    timezone: string;
    stripe_webhook_configured: boolean;
    stripe_webhook_url: string;
    channel_slug: string;
    channel_url: string;
  };
  credential: { kind: string; role: string; tier: string; scopes: string[] };
  assistant_guidance: string;
  created_at: string;
}

/** What the form holds: the workspace's values, or what the person sent when it comes back with problems. */
export interface WorkspaceFormValues {
  name: string;
  slug: string;
  timezone: string;
  mask_pii: boolean;
  assistant_guidance: string;
}

export function valuesOf(facts: WorkspaceFacts): WorkspaceFormValues {
  return {
    name: facts.name,
    slug: facts.settings.channel_slug,
    timezone: facts.settings.timezone,
    mask_pii: facts.settings.mask_pii,
    assistant_guidance: facts.assistant_guidance,
  };
}

let zones: string[] | undefined;
function timeZones(current: string): string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  return zones.includes(current) ? zones : [current, ...zones];
}

export function workspaceForm(csrf: string, values: WorkspaceFormValues, facts: WorkspaceFacts, problems: Problems): string {
  return (
    '<section aria-labelledby="general-heading" class="card"><h2 id="general-heading">General</h2>' +
    formAlert(problems) +
    `<form class="stack settings-form" method="post" action="/app/settings/workspace" novalidate>${csrfField(csrf)}` +
    inputField({
      id: 'f-name',
      name: 'name',
      label: 'Workspace name',
      value: values.name,
      problem: problems.name,
      hint: 'Shown to your team, and as the public channel’s heading while it has no headline.',
      required: true,
      attributes: ' maxlength="200" autocomplete="organization"',
    }) +
    inputField({
      id: 'f-slug',
      name: 'slug',
      label: 'Channel address',
      value: values.slug,
      problem: problems.slug,
      hint: `Your public channel lives at /c/${values.slug}. The old address keeps redirecting for 90 days after a change.`,
      required: true,
      attributes: ' maxlength="64" autocapitalize="none" spellcheck="false"',
    }) +
    selectField({
      id: 'f-timezone',
      name: 'timezone',
      label: 'Time zone',
      value: values.timezone,
      problem: problems.timezone,
      hint: 'Analytics days follow it from the next viewing session on; days already counted keep their zone.',
      options: timeZones(values.timezone).map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
    }) +
    `<label class="check" for="f-mask"><input type="checkbox" id="f-mask" name="mask_pii" value="true"${values.mask_pii ? ' checked' : ''} aria-describedby="f-mask-hint">` +
    '<span><strong>Mask leads’ personal data</strong>' +
    '<span class="hint" id="f-mask-hint">Emails, names and phone numbers are masked in every response, page and webhook; owners and admins can reveal one lead at a time, and each reveal is audited.</span></span></label>' +
    (problems.mask_pii ? `<p class="field-error">${escapeHtml(problems.mask_pii)}</p>` : '') +
    textareaField({
      id: 'f-guidance',
      name: 'assistant_guidance',
      label: 'Guidance for AI assistants',
      value: values.assistant_guidance,
      problem: problems.assistant_guidance,
      hint: 'What assistants connected to this workspace should keep in mind (tone, what to leave alone). They read it first.',
      attributes: ' maxlength="4000"',
    }) +
    '<div class="buttons"><button type="submit" class="primary">Save changes</button></div></form>' +
    stripeForm(csrf, facts, problems) +
    '</section>'
  );
}

function stripeForm(csrf: string, facts: WorkspaceFacts, problems: Problems): string {
  const configured = facts.settings.stripe_webhook_configured;
  return (
    '<h3 id="stripe-heading">Stripe payments</h3>' +
    `<p class="stripe-state"><span class="badge${configured ? ' on' : ''}">${configured ? 'Connected' : 'Not connected'}</span>` +
    `<span>Point a Stripe webhook at <code class="break">${escapeHtml(facts.settings.stripe_webhook_url)}</code> and paste its signing secret here.</span></p>` +
    `<form class="stack settings-form" method="post" action="/app/settings/workspace/stripe" novalidate aria-labelledby="stripe-heading">${csrfField(csrf)}` +
    inputField({
      id: 'f-stripe',
      name: 'stripe_webhook_secret',
      label: configured ? 'New signing secret' : 'Signing secret',
      type: 'password',
      problem: problems.stripe_webhook_secret,
      hint: 'whsec_…, from the endpoint’s page in Stripe. It is sealed and never shown again.',
      attributes: ' autocomplete="off" spellcheck="false"',
    }) +
    '<div class="buttons"><button type="submit">Save signing secret</button>' +
    (configured ? '<button type="submit" name="remove" value="true" class="quiet-danger" formnovalidate>Disconnect Stripe</button>' : '') +
    '</div></form>'
  );
}

/** The same facts for a person who may not change them. */
export function workspaceReadOnly(facts: WorkspaceFacts, timeZone: string): string {
  const row = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;
  return (
    '<section aria-labelledby="general-heading" class="card"><h2 id="general-heading">General</h2>' +
    '<p class="hint">Only owners and admins change these settings.</p><dl class="facts">' +
    row('Workspace name', escapeHtml(facts.name)) +
    row('Channel address', `<a href="${escapeHtml(facts.settings.channel_url)}">/c/${escapeHtml(facts.settings.channel_slug)}</a>`) +
    row('Time zone', escapeHtml(facts.settings.timezone)) +
    row('Leads’ personal data', facts.settings.mask_pii ? 'Masked' : 'Shown') +
    row('Guidance for AI assistants', facts.assistant_guidance ? escapeHtml(facts.assistant_guidance) : '<span class="muted">None</span>') +
    row('Created', escapeHtml(formatDate(facts.created_at, timeZone))) +
    '</dl></section>'
  );
}

const ENTITLEMENT_NAMES: Record<string, string> = {
  interactive_routes: 'Interactive routes',
  webhooks: 'Webhooks',
  scheduling: 'Scheduling and bookings',
};

function bytes(value: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let amount = value;
  let unit = 0;
  while (amount >= 1000 && unit < units.length - 1) {
    amount /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${formatCount(amount)} bytes` : `${amount.toFixed(amount < 10 ? 1 : 0)} ${units[unit]}`;
}

export function planAndUsage(facts: WorkspaceFacts): string {
  const { usage, limits } = facts;
  const videos =
    limits.videos_max === null
      ? `${formatCount(usage.videos)} <span class="muted">· no limit</span>`
      : shareBar(usage.videos / Math.max(1, limits.videos_max), `${formatCount(usage.videos)} of ${formatCount(limits.videos_max)}`);
  const included = Object.entries(facts.entitlements).map(
    ([name, on]) =>
      `<li class="${on ? 'yes' : 'no'}"><span class="visually-hidden">${on ? 'Included: ' : 'Not included: '}</span>${escapeHtml(ENTITLEMENT_NAMES[name] ?? name.replaceAll('_', ' '))}</li>`,
  );
  return (
    '<section aria-labelledby="plan-heading" class="card"><h2 id="plan-heading">Plan and usage</h2>' +
    `<p class="plan-name"><span class="badge on">${escapeHtml(facts.plan.charAt(0).toUpperCase() + facts.plan.slice(1))}</span> plan</p>` +
    '<dl class="facts">' +
    `<dt>Videos</dt><dd>${videos}</dd>` +
    `<dt>Ready to watch</dt><dd>${formatCount(usage.videos_ready)}</dd>` +
    `<dt>Archived</dt><dd>${formatCount(usage.videos_archived)}</dd>` +
    `<dt>Storage</dt><dd>${bytes(usage.storage_bytes)}</dd>` +
    `<dt>Active API keys</dt><dd>${formatCount(usage.api_keys)}</dd>` +
    `<dt>Rate limit</dt><dd>${formatCount(limits.requests_per_minute)} requests a minute per key</dd>` +
    '</dl>' +
    `<h3>Included in the plan</h3><ul class="entitlements">${included.join('')}</ul>` +
    '</section>'
  );
}

export function yourAccess(facts: WorkspaceFacts): string {
  return (
    '<section aria-labelledby="access-heading" class="card"><h2 id="access-heading">Your access</h2>' +
    `<p>You are ${facts.credential.role === 'admin' || facts.credential.role === 'owner' ? 'an' : 'a'} <strong>${escapeHtml(facts.credential.role)}</strong> here, with ${escapeHtml(facts.credential.tier)} access.</p>` +
    `<ul class="scopes">${facts.credential.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('')}</ul>` +
    '</section>'
  );
}
