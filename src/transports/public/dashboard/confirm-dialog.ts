/**
 * A destructive control confirmed in a dialog (DESIGN §10: "Delete video", "Delete lead", confirmed by a
 * button "Delete"). The control opens the <dialog> through an invoker command (`commandfor`, no script
 * needed); a browser without invoker commands submits the control's GET form instead, and the page
 * comes back with the dialog open. Either way the confirmation is a real form post with the CSRF token.
 */
import { escapeHtml } from '../http/page-parts.ts';

export interface ConfirmControl {
  /** The control's words: "Delete video". */
  label: string;
  /** The page's own path, to which the fallback GET adds ?confirm=… */
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
    `<form method="get" action="${escapeHtml(control.page)}"><input type="hidden" name="confirm" value="1">` +
    `<button class="danger" commandfor="${id}" command="show-modal">${escapeHtml(control.label)}</button></form>` +
    `<dialog id="${id}" aria-labelledby="${id}-heading"${control.open ? ' open' : ''}>` +
    `<h2 id="${id}-heading">${escapeHtml(control.heading)}</h2><p>${escapeHtml(control.consequence)}</p>` +
    `<div class="dialog-actions"><form method="post" action="${escapeHtml(control.action)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(control.csrf)}"><button type="submit" class="danger">Delete</button></form>` +
    `<form method="get" action="${escapeHtml(control.page)}"><button commandfor="${id}" command="close">Cancel</button></form></div>` +
    '</dialog>'
  );
}
