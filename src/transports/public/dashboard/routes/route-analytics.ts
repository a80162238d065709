/**
 * A route's path analytics beside its graph: the funnel (visits reaching each step, a bar chart with
 * its numbers) and the most common paths get_route reports, as a table a person reads left to right.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { barChart, shareBar } from '../kit/charts.ts';
import { formatCompact, formatCount, formatShare } from '../kit/formats.ts';
import { type RouteDetail, stepNumbers } from './route-types.ts';

export function reachChart(route: RouteDetail): string {
  if (route.starts === 0)
    return '<p class="empty">No visits yet: the funnel shows how many visits reach each step once people play the route.</p>';
  const numbers = stepNumbers(route);
  const most = [...route.steps].sort((a, b) => b.dropped_off - a.dropped_off)[0];
  const worst =
    most && most.dropped_off > 0
      ? ` Most visits leave at step ${numbers.get(most.step_id)} (${most.video.title}): ${formatCount(most.dropped_off)}.`
      : '';
  return barChart({
    id: 'route-reach',
    title: 'Visits reaching each step',
    description: `${formatCount(route.starts)} visits started at step 1 and ${formatCount(route.completions)} completed.${worst}`,
    bars: route.steps.map((step) => ({ label: `Step ${numbers.get(step.step_id)}`, value: step.reached })),
    format: (value) => (value >= 10_000 ? formatCompact(value) : formatCount(value)),
    xHeading: 'Step',
    valueHeading: 'Visits reaching it',
  });
}

export function pathsTable(route: RouteDetail): string {
  if (route.paths.length === 0) return '<p class="empty">No visits yet: the most common paths show here once people play the route.</p>';
  const numbers = stepNumbers(route);
  const titles = new Map(route.steps.map((step) => [step.step_id, step.video.title]));
  const rows = route.paths
    .map((path, index) => {
      const trail = path.step_ids
        .map((stepId, at) => {
          const step = `<span class="path-step">${numbers.get(stepId) ?? '?'}. ${escapeHtml(titles.get(stepId) ?? 'A removed step')}</span>`;
          const choice = path.choices[at];
          if (choice === undefined) return step;
          // The last label, when there is one, is the choice that left the route (the end card, the form, a link).
          const last = at === path.step_ids.length - 1;
          return `${step}<span class="path-choice"> → “${escapeHtml(choice)}”${last ? '' : ' → '}</span>`;
        })
        .join('');
      const rate = path.visits > 0 ? path.completed / path.visits : 0;
      return (
        `<tr><th scope="row">${index + 1}</th><td class="path">${trail}</td><td class="number">${formatCount(path.visits)}</td>` +
        `<td class="number">${formatCount(path.completed)}</td><td>${shareBar(rate, formatShare(rate))}</td></tr>`
      );
    })
    .join('');
  return (
    '<div class="table-scroll" role="region" tabindex="0" aria-label="The most common paths (scrolls sideways)"><table class="paths"><caption class="visually-hidden">The most common paths</caption><thead><tr><th scope="col">#</th><th scope="col">Path</th>' +
    `<th scope="col" class="number">Visits</th><th scope="col" class="number">Completed</th><th scope="col">Rate</th></tr></thead><tbody>${rows}</tbody></table></div>`
  );
}
