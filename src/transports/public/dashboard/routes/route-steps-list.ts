/**
 * The route's structure as nested lists: each step with its video, question and numbers, each choice
 * with where it leads and how many took it. It is the graph's text twin (what a screen reader reads,
 * what a phone shows without scrolling sideways) and where each step's "Edit choices" lives.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatShare } from '../kit/formats.ts';
import { exitName } from './route-graph-svg.ts';
import { type RouteChoice, type RouteDetail, stepNumbers } from './route-types.ts';

function destination(choice: RouteChoice, route: RouteDetail, numbers: Map<string, number>): string {
  if (choice.target === 'step' && choice.to_step_id) {
    const step = route.steps.find((candidate) => candidate.step_id === choice.to_step_id);
    return `<a href="#step-${escapeHtml(choice.to_step_id)}">Step ${numbers.get(choice.to_step_id) ?? '?'}: ${escapeHtml(step?.video.title ?? '')}</a>`;
  }
  if (choice.target === 'url' && choice.url)
    return `Link to <a href="${escapeHtml(choice.url)}" rel="noopener noreferrer">${escapeHtml(choice.url)}</a>`;
  if (choice.target === 'booking' && choice.booking_url) return `<a href="${escapeHtml(choice.booking_url)}">Booking page</a>`;
  return escapeHtml(exitName(choice));
}

export function routeStepsList(route: RouteDetail, canWrite: boolean): string {
  const numbers = stepNumbers(route);
  const problemsByStep = new Map<string, string[]>();
  for (const problem of route.problems) {
    if (problem.step_id) problemsByStep.set(problem.step_id, [...(problemsByStep.get(problem.step_id) ?? []), problem.message]);
  }
  const items = route.steps.map((step) => {
    const number = numbers.get(step.step_id) as number;
    const problems = problemsByStep.get(step.step_id) ?? [];
    const choices =
      step.choices.length === 0
        ? '<p class="step-facts">No choices: the route ends when this video plays out.</p>'
        : `<ul class="choices">${step.choices
            .map(
              (choice) =>
                `<li><span class="choice-label">${escapeHtml(choice.label)}</span> → ${destination(choice, route, numbers)}` +
                `<span class="choice-numbers">${shareBar(choice.share, `${formatShare(choice.share)} · ${formatCount(choice.chosen)} chose it`)}</span></li>`,
            )
            .join('')}</ul>`;
    return (
      `<li id="step-${escapeHtml(step.step_id)}" class="route-step${problems.length > 0 ? ' has-problem' : ''}">` +
      '<div class="step-head">' +
      `<h3>Step ${number}: ${escapeHtml(step.video.title)}${step.entry ? ' <span class="badge">Entry</span>' : ''}${step.video.available ? '' : ' <span class="status failed">Video unavailable</span>'}</h3>` +
      (canWrite
        ? `<a class="button" href="/app/routes/${escapeHtml(route.route_id)}/steps/${escapeHtml(step.step_id)}">Edit choices<span class="visually-hidden"> of step ${number}</span></a>`
        : '') +
      '</div>' +
      `<p class="step-facts">${formatCount(step.reached)} reached · ${formatCount(step.finished)} finished here · ${formatCount(step.dropped_off)} dropped off</p>` +
      (step.question
        ? `<p class="step-question">Asks “${escapeHtml(step.question)}”${step.ask_at_second === null ? ' when the video ends' : ` at ${step.ask_at_second} s`}</p>`
        : '') +
      choices +
      (problems.length > 0
        ? `<ul class="step-problems">${problems.map((message) => `<li>${escapeHtml(message)}</li>`).join('')}</ul>`
        : '') +
      '</li>'
    );
  });
  return `<ol class="route-steps">${items.join('')}</ol>`;
}
