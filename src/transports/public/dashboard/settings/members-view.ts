/**
 * The Members tab's HTML: the people of the workspace and the invitations still open (list_members),
 * each with a role control and a confirmed Remove for the rows the person may change (nobody changes
 * someone above their own role), and the invitation form offering roles up to their own.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDate } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import { formAlert, inputField, type Problems, selectField } from './form-fields.ts';
import { rowConfirm } from './row-confirm.ts';

export interface MemberRow {
  member_id: string;
  status: 'active' | 'invited';
  user_id: string | null;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
  expires_at: string | null;
}

export type Role = 'owner' | 'admin' | 'member' | 'viewer';
const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };
const ROLE_WORDS: Record<Role, string> = {
  owner: 'Owner: everything, including billing-like settings',
  admin: 'Admin: everything, including members, keys and webhooks',
  member: 'Member: edits videos, leads, routes and the channel',
  viewer: 'Viewer: reads everything it is shown',
};

/** The roles `actor` may give: never above their own (DESIGN §10). */
export function grantable(actor: Role): Role[] {
  return (['viewer', 'member', 'admin', 'owner'] as const).filter((role) => RANK[role] <= RANK[actor]);
}

export function isRole(value: string | undefined): value is Role {
  return value === 'owner' || value === 'admin' || value === 'member' || value === 'viewer';
}

export interface MembersView {
  csrf: string;
  actor: Role;
  actorUserId: string;
  rows: MemberRow[];
  timeZone: string;
  invite: { email: string; role: Role; problems: Problems };
}

export function membersContent(view: MembersView): string {
  const active = view.rows.filter((row) => row.status === 'active');
  const invited = view.rows.filter((row) => row.status === 'invited');
  return (
    '<section aria-labelledby="people-heading" class="card">' +
    `<h2 id="people-heading">People <span class="count">${active.length}</span></h2>` +
    table(view, active, 'people') +
    '</section>' +
    '<section aria-labelledby="invitations-heading" class="card">' +
    `<h2 id="invitations-heading">Pending invitations <span class="count">${invited.length}</span></h2>` +
    (invited.length
      ? table(view, invited, 'invitations')
      : '<p class="empty">No invitations waiting. People you invite appear here until they accept.</p>') +
    '</section>' +
    inviteForm(view)
  );
}

function table(view: MembersView, rows: MemberRow[], kind: 'people' | 'invitations'): string {
  const head =
    kind === 'people'
      ? '<tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>'
      : '<tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Link expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>';
  return `<div class="table-scroll"><table class="members"><thead>${head}</thead><tbody>${rows.map((row) => rowHtml(view, row)).join('')}</tbody></table></div>`;
}

function rowHtml(view: MembersView, row: MemberRow): string {
  const who = row.name ?? row.email;
  const you = row.user_id === view.actorUserId;
  const person =
    row.status === 'active'
      ? `<strong>${escapeHtml(row.name ?? row.email)}</strong>${you ? ' <span class="badge">You</span>' : ''}<span class="meta">${escapeHtml(row.email)}</span>`
      : `<strong>${escapeHtml(row.email)}</strong><span class="meta">Invited ${escapeHtml(formatDate(row.created_at, view.timeZone))}</span>`;
  const when = row.status === 'active' ? row.created_at : (row.expires_at ?? row.created_at);
  // Nobody changes someone above their own role; the server says so too.
  const changeable = RANK[row.role] <= RANK[view.actor];
  const roleCell = changeable
    ? `<form class="inline role-form" method="post" action="/app/settings/members/${row.member_id}/role">${csrfField(view.csrf)}` +
      `<label class="visually-hidden" for="role-${row.member_id}">Role of ${escapeHtml(who)}</label>` +
      `<select id="role-${row.member_id}" name="role">${grantable(view.actor)
        .map((role) => `<option value="${role}"${role === row.role ? ' selected' : ''}>${capital(role)}</option>`)
        .join('')}</select>` +
      `<button type="submit" class="small" aria-label="Change role of ${escapeHtml(who)}">Change</button></form>`
    : `<span class="badge">${capital(row.role)}</span>`;
  const remove = changeable
    ? rowConfirm({
        id: row.member_id,
        label: row.status === 'active' ? 'Remove' : 'Withdraw',
        accessibleLabel: `${row.status === 'active' ? 'Remove' : 'Withdraw the invitation of'} ${who}`,
        heading: row.status === 'active' ? `Remove ${who}?` : `Withdraw the invitation to ${row.email}?`,
        consequence:
          row.status === 'active'
            ? `${who} is signed out everywhere at once, and the API keys they minted stop working. You can invite them again later.`
            : 'The link in the email stops working. You can invite them again later.',
        confirm: row.status === 'active' ? 'Remove' : 'Withdraw',
        action: `/app/settings/members/${row.member_id}/remove`,
        csrf: view.csrf,
        page: '/app/settings/members',
      })
    : '';
  return `<tr><td class="who">${person}</td><td>${roleCell}</td><td>${escapeHtml(formatDate(when, view.timeZone))}</td><td class="row-actions">${remove}</td></tr>`;
}

function capital(role: string): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

function inviteForm(view: MembersView): string {
  const { invite } = view;
  return (
    '<section aria-labelledby="invite-heading" class="card"><h2 id="invite-heading">Invite someone</h2>' +
    '<p class="hint">They get an email with a link that works once, for 7 days. Without a mail server, the link is written to the server’s log.</p>' +
    formAlert(invite.problems) +
    `<form class="stack settings-form" method="post" action="/app/settings/members/invite" novalidate>${csrfField(view.csrf)}` +
    inputField({
      id: 'f-invite-email',
      name: 'email',
      label: 'Email',
      type: 'email',
      value: invite.email,
      problem: invite.problems.email,
      required: true,
      attributes: ' autocomplete="off" spellcheck="false"',
    }) +
    selectField({
      id: 'f-invite-role',
      name: 'role',
      label: 'Role',
      value: invite.role,
      problem: invite.problems.role,
      hint: 'Nobody gives a role above their own.',
      options: grantable(view.actor)
        .reverse()
        .map((role) => ({ value: role, label: ROLE_WORDS[role] })),
    }) +
    '<div class="buttons"><button type="submit" class="primary">Send invitation</button></div></form></section>'
  );
}
