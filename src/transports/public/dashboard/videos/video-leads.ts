/**
 * The leads this video brought (list_leads filtered by the video: those who watched it or were
 * captured on it), most engaged first, masked exactly as the API masks them for this person.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatDate } from '../kit/formats.ts';
import type { LeadsAnswer, Part } from './video-answers.ts';

export const LEADS_SHOWN = 10;

export function leadsPart(answer: Part<LeadsAnswer> | undefined, videoId: string, timeZone: string): string {
  if (!answer) return '<p class="empty">Your role does not show leads.</p>';
  if (!answer.ok) return `<p class="empty">${escapeHtml(answer.message)}</p>`;
  const { leads, pagination, pii_redacted: masked } = answer.body;
  if (leads.length === 0) {
    return '<p class="empty">No leads yet. They appear here when someone who watched this video fills in its form, books a call or is added by the API.</p>';
  }
  const rows = leads
    .map((lead) => {
      const who = lead.name ? `${lead.name}` : lead.email;
      const captured = lead.source_video?.video_id === videoId ? 'Its form' : 'Watched it';
      return (
        `<tr><th scope="row"><a href="/app/leads/${escapeHtml(lead.lead_id)}">${escapeHtml(who)}</a>${lead.name ? `<span class="meta video-lead-email">${escapeHtml(lead.email)}</span>` : ''}</th>` +
        `<td><span class="status ${escapeHtml(lead.status)}">${escapeHtml(lead.status)}</span></td>` +
        `<td>${shareBar(lead.engagement_score / 100, String(lead.engagement_score))}</td>` +
        `<td>${captured}</td><td>${escapeHtml(formatDate(lead.created_at, timeZone))}</td></tr>`
      );
    })
    .join('');
  const more =
    pagination.total > leads.length
      ? `<p><a href="/app/leads?video_id=${escapeHtml(videoId)}">All ${formatCount(pagination.total)} leads of this video</a></p>`
      : '';
  return (
    (masked
      ? '<p class="hint">Names and emails are masked, as the workspace asks. Owners and admins can reveal a lead on its page.</p>'
      : '') +
    '<div class="table-scroll"><table class="video-leads"><thead><tr><th scope="col">Lead</th><th scope="col">Status</th><th scope="col">Engagement</th><th scope="col">How</th><th scope="col">Captured</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>${more}`
  );
}
