/**
 * A destructive control of one row of a list (remove a member, revoke a key), confirmed in a dialog,
 * as kit/confirm-dialog.ts does it for a page's one object: the button opens the <dialog> through an
 * invoker command (no script), and the confirmation is a real form post with the CSRF token. Each row
 * has a dialog of its own, so its id carries the row's.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { csrfField } from '../kit/page-route.ts';

export interface RowConfirm {
  /** Unique on the page: becomes the dialog's id. */
  id: string;
  /** The control's words: "Remove", "Revoke". */
  label: string;
  /** Said to assistive technology: "Remove Grace Hopper". */
  accessibleLabel: string;
  heading: string;
  consequence: string;
  /** The confirming button's words. */
  confirm: string;
  action: string;
  csrf: string;
  /** Where Cancel leads when the dialog is open without script (the page itself). */
  page: string;
}

export function rowConfirm(control: RowConfirm): string {
  const id = `confirm-${control.id}`;
  return (
    `<button type="button" class="danger small" commandfor="${id}" command="show-modal" aria-label="${escapeHtml(control.accessibleLabel)}">${escapeHtml(control.label)}</button>` +
    `<dialog id="${id}" aria-labelledby="${id}-heading">` +
    `<h2 id="${id}-heading">${escapeHtml(control.heading)}</h2><p>${escapeHtml(control.consequence)}</p>` +
    `<div class="dialog-actions"><form method="post" action="${escapeHtml(control.action)}">${csrfField(control.csrf)}` +
    `<button type="submit" class="danger">${escapeHtml(control.confirm)}</button></form>` +
    `<button type="button" commandfor="${id}" command="close">Cancel</button></div>` +
    '</dialog>'
  );
}
