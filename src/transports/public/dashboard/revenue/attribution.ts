/**
 * Attribution of the ledger entries listed: which videos their leads watched first and last before
 * paying (the first and last touch list_outcomes stores on each entry when it is written). The
 * analytics operations give no workspace-wide attribution by first touch, so this reads the entries
 * the ledger already fetched (no call of its own) and says so: "of the N entries shown".
 * Money is net per currency (succeeded purchases minus succeeded refunds), never added across currencies.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatMoney } from '../kit/formats.ts';
import type { VideoRef } from '../leads/lead-words.ts';
import type { OutcomeView } from './outcome-words.ts';

interface Credit {
  video: VideoRef;
  entries: number;
  net: Map<string, number>;
}

function credits(outcomes: OutcomeView[], touch: 'first_touch_video' | 'last_touch_video'): Credit[] {
  const byVideo = new Map<string, Credit>();
  for (const outcome of outcomes) {
    const video = outcome[touch];
    if (!video || outcome.status !== 'succeeded' || outcome.kind === 'booked_call') continue;
    const credit = byVideo.get(video.video_id) ?? { video, entries: 0, net: new Map<string, number>() };
    credit.entries += 1;
    const signed = outcome.kind === 'refund' ? -outcome.value : outcome.value;
    credit.net.set(outcome.currency, (credit.net.get(outcome.currency) ?? 0) + signed);
    byVideo.set(video.video_id, credit);
  }
  return [...byVideo.values()].sort((a, b) => b.entries - a.entries || a.video.title.localeCompare(b.video.title)).slice(0, 5);
}

function creditTable(caption: string, list: Credit[]): string {
  if (list.length === 0)
    return `<div class="attribution-column"><h3>${escapeHtml(caption)}</h3><p class="empty">None of these entries has one.</p></div>`;
  return (
    `<div class="attribution-column"><h3>${escapeHtml(caption)}</h3><div class="table-scroll"><table><thead><tr><th scope="col">Video</th><th scope="col" class="number">Entries</th><th scope="col" class="number">Net</th></tr></thead><tbody>` +
    list
      .map(
        (credit) =>
          `<tr><th scope="row"><a href="/app/videos/${escapeHtml(credit.video.video_id)}">${escapeHtml(credit.video.title)}</a></th><td class="number">${credit.entries}</td><td class="number">${[
            ...credit.net.entries(),
          ]
            .map(([currency, value]) => escapeHtml(formatMoney(value, currency)))
            .join('<br>')}</td></tr>`,
      )
      .join('') +
    '</tbody></table></div></div>'
  );
}

export function attributionSection(outcomes: OutcomeView[]): string {
  const money = outcomes.filter((o) => o.kind !== 'booked_call' && o.status === 'succeeded');
  const body =
    money.length === 0
      ? '<p class="empty">No succeeded purchases or refunds among the entries shown.</p>'
      : `<p class="meta">Of the ${outcomes.length} ${outcomes.length === 1 ? 'entry' : 'entries'} shown below: the video each buyer watched first, and the last one they watched before paying.</p>` +
        `<div class="attribution">${creditTable('First touch', credits(money, 'first_touch_video'))}${creditTable('Last touch', credits(money, 'last_touch_video'))}</div>`;
  return `<section class="revenue-attribution" aria-labelledby="attribution-heading"><h2 id="attribution-heading">Attribution</h2>${body}</section>`;
}
