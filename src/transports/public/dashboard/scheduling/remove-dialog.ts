/**
 * A removal confirmed in a dialog, for lists where each row has its own (the kit's confirmControl has one
 * fixed id per page): the same invoker-command dialog, no script, with an id per row. The confirmation
 * is a real form post with the CSRF token; Cancel closes the dialog.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export function removeControl(options: {
  id: string;
  label: string;
  heading: string;
  consequence: string;
  action: string;
  csrf: string;
}): string {
  const id = `remove-${options.id}`;
  return (
    `<button type="button" class="quiet-danger" commandfor="${id}" command="show-modal">${escapeHtml(options.label)}</button>` +
    `<dialog id="${id}" aria-labelledby="${id}-heading">` +
    `<h2 id="${id}-heading">${escapeHtml(options.heading)}</h2><p>${escapeHtml(options.consequence)}</p>` +
    `<div class="dialog-actions"><form method="post" action="${escapeHtml(options.action)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}"><button type="submit" class="danger">Remove</button></form>` +
    `<button type="button" commandfor="${id}" command="close">Cancel</button></div>` +
    '</dialog>'
  );
}
