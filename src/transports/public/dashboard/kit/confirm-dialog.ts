/**
 * A destructive control confirmed in a dialog (DESIGN §10: "Delete video", "Delete lead", confirmed by a
 * button "Delete"). The control opens the <dialog> through an invoker command (`commandfor`: no script,
 * in every current browser). It stands outside any form: Chromium ignores the command of a button that
 * belongs to one. `?confirm=1` renders the page with the dialog already open, for a link that should
 * land on the question. The confirmation is a real form post with the CSRF token.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export interface ConfirmControl {
  /** The control's words: "Delete video". */
  label: string;
  /** The page's own path: where Cancel leads (closing the dialog, or leaving the ?confirm=1 page). */
  page: string;
  /** The confirmation's POST target. */
  action: string;
  heading: string;
  /** What will be lost, in a sentence or two. */
  consequence: string;
  csrf: string;
  /** Render with the dialog already open (the fallback's second page). */
  open: boolean;
}

export function confirmControl(control: ConfirmControl): string {
  const id = 'confirm-dialog';
  return (
    `<button type="button" class="danger" commandfor="${id}" command="show-modal">${escapeHtml(control.label)}</button>` +
    `<dialog id="${id}" aria-labelledby="${id}-heading"${control.open ? ' open' : ''}>` +
    `<h2 id="${id}-heading">${escapeHtml(control.heading)}</h2><p>${escapeHtml(control.consequence)}</p>` +
    `<div class="dialog-actions"><form method="post" action="${escapeHtml(control.action)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(control.csrf)}"><button type="submit" class="danger">Delete</button></form>` +
    `<a class="button" href="${escapeHtml(control.page)}">Cancel</a></div>` +
    '</dialog>'
  );
}
