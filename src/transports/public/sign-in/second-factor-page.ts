/** The second step of a password sign-in with two-factor on: "Enter the 6-digit code". */
import { accountPage, alertBox, field, hiddenField } from '../http/account-page.ts';

export interface SecondFactorView {
  /** The second_factor token's secret, which says the password was right. */
  pending: string;
  next?: string;
  error?: string;
}

export function secondFactorPage(view: SecondFactorView): string {
  return accountPage(
    'Enter your code',
    '<h1>Enter the 6-digit code</h1><p class="lede">Open the authenticator app on your phone and enter the code it shows for Cuepoint.</p>' +
      alertBox(view.error) +
      '<form method="post" action="/sign-in/second-factor" novalidate>' +
      hiddenField('pending', view.pending) +
      (view.next ? hiddenField('next', view.next) : '') +
      field({
        name: 'code',
        label: 'Code',
        type: 'text',
        autocomplete: 'one-time-code',
        inputmode: 'numeric',
        className: 'code',
        maxlength: 9,
        hint: 'A new code appears every 30 seconds.',
      }) +
      '<button type="submit">Verify</button></form>' +
      '<p class="below"><a href="/sign-in">Start again</a></p>',
  );
}
