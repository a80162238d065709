/**
 * A route's graph drawn on the server (DESIGN §10): steps as boxes with their video, question and
 * how many visits reached them; choices as labelled arrows with the share of the step's visits that
 * took them; the ways out as small end boxes. The SVG is one image for assistive technology (a title
 * and a description in words); the same structure, with every number, is the steps list the page
 * puts under it. No script, no inline style: colours come from routes.css.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatShare } from '../kit/formats.ts';
import { type ExitNode, type GraphEdge, type GraphNode, layoutRoute, type StepNode } from './route-graph-layout.ts';
import type { RouteChoice, RouteDetail } from './route-types.ts';

/** What a way out of the route is called, in a box and in the list. */
export function exitName(choice: RouteChoice): string {
  switch (choice.target) {
    case 'end':
      return 'End card';
    case 'lead_form':
      return 'Lead form';
    case 'booking':
      return 'Booking page';
    case 'url':
      return `Link · ${hostOf(choice.url)}`;
    default:
      return 'A step no longer there';
  }
}

function hostOf(url: string | null): string {
  try {
    return new URL(url ?? '').host;
  } catch {
    return url ?? '';
  }
}

/** SVG text does not wrap: long text is cut with an ellipsis (the whole is in the box's <title> and in the list). */
function clip(text: string, room: number): string {
  const characters = [...text];
  return characters.length <= room
    ? text
    : `${characters
        .slice(0, room - 1)
        .join('')
        .trimEnd()}…`;
}

function stepBox(node: StepNode, scale: number, problemSteps: Set<string>): string {
  const { step, x, y, width, height } = node;
  const broken = problemSteps.has(step.step_id);
  const classes = ['step', step.entry ? 'entry' : '', broken ? 'problem' : '', node.reachable ? '' : 'unreachable']
    .filter(Boolean)
    .join(' ');
  // Short enough for the box in capitals: a problem matters more than being the last step.
  const caption = `Step ${node.number}${step.entry ? ' · Entry' : ''}${broken ? ' · Fix needed' : step.choices.length === 0 ? ' · Last' : ''}`;
  const question = step.choices.length === 0 ? 'Ends the route when it plays out' : (step.question ?? 'No question: choices only');
  const barWidth = width - 24;
  const fill = scale > 0 ? Math.round((barWidth * step.reached) / scale) : 0;
  const tooltip = `Step ${node.number}: ${step.video.title}. ${step.question ?? ''} Reached by ${formatCount(step.reached)}, ${formatCount(step.dropped_off)} dropped off.`;
  return (
    `<g class="${classes}"><title>${escapeHtml(tooltip)}</title>` +
    `<rect class="step-box" x="${x}" y="${y}" width="${width}" height="${height}" rx="10"/>` +
    `<text class="caption" x="${x + 12}" y="${y + 20}">${escapeHtml(caption)}</text>` +
    `<text class="title" x="${x + 12}" y="${y + 40}">${escapeHtml(clip(step.video.title, 20))}</text>` +
    `<text class="question" x="${x + 12}" y="${y + 58}">${escapeHtml(clip(question, 27))}</text>` +
    `<rect class="reach-track" x="${x + 12}" y="${y + 70}" width="${barWidth}" height="6" rx="3"/>` +
    `<rect class="reach-fill" x="${x + 12}" y="${y + 70}" width="${fill}" height="6" rx="3"/>` +
    `<text class="reach" x="${x + 12}" y="${y + 94}">${escapeHtml(`${formatCount(step.reached)} reached · ${formatCount(step.dropped_off)} left`)}</text>` +
    '</g>'
  );
}

function exitBox(node: ExitNode): string {
  const { x, y, width, height, choice } = node;
  return (
    `<g class="exit ${escapeHtml(choice.target)}"><title>${escapeHtml(choice.url ?? exitName(choice))}</title>` +
    `<rect class="exit-box" x="${x}" y="${y}" width="${width}" height="${height}" rx="${height / 2}"/>` +
    `<text class="exit-name" x="${x + width / 2}" y="${y + height / 2 + 5}" text-anchor="middle">${escapeHtml(clip(exitName(choice), 20))}</text></g>`
  );
}

interface Point {
  x: number;
  y: number;
}

function bezierAt(p: [Point, Point, Point, Point], t: number): Point {
  const u = 1 - t;
  const [a, b, c, d] = p;
  return {
    x: u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * c.x + t * t * t * d.x,
    y: u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * c.y + t * t * t * d.y,
  };
}

function edgeLine(edge: GraphEdge, hasStarts: boolean, arrowId: string): string {
  const { from, to, choice } = edge;
  const spread = from.height - 32;
  const startY = from.y + 16 + (edge.of === 1 ? spread / 2 : (spread * edge.index) / (edge.of - 1));
  let points: [Point, Point, Point, Point];
  let labelAt: Point;
  if (!edge.loop) {
    const start = { x: from.x + from.width, y: startY };
    const end = { x: to.x - 2, y: to.y + to.height / 2 };
    const middle = (start.x + end.x) / 2;
    points = [start, { x: middle, y: start.y }, { x: middle, y: end.y }, end];
    labelAt = bezierAt(points, 0.5);
  } else {
    // Back to an earlier step (or the same one): out of the box's top or bottom, along its lane, into the step.
    const over = edge.loop.side === 'over';
    const lane = over ? edge.loop.y - 8 : edge.loop.y + 8;
    const start = { x: from.x + from.width * 0.7, y: over ? from.y : from.y + from.height };
    const end = { x: to.x + to.width * 0.3, y: over ? to.y - 2 : to.y + to.height + 2 };
    points = [start, { x: start.x, y: lane }, { x: end.x, y: lane }, end];
    labelAt = bezierAt(points, 0.5);
  }
  const [a, b, c, d] = points;
  const text = hasStarts ? `${clip(choice.label, 22)} · ${formatShare(choice.share)}` : clip(choice.label, 24);
  const labelWidth = [...text].length * 6.6 + 12;
  return (
    `<g class="edge ${escapeHtml(choice.target)}"><title>${escapeHtml(`${choice.label}: chosen ${formatCount(choice.chosen)} times (${formatShare(choice.share)})`)}</title>` +
    `<path d="M${a.x} ${a.y} C${b.x} ${b.y} ${c.x} ${c.y} ${d.x} ${d.y}" marker-end="url(#${arrowId})"/>` +
    `<rect class="edge-label" x="${(labelAt.x - labelWidth / 2).toFixed(1)}" y="${(labelAt.y - 10).toFixed(1)}" width="${labelWidth.toFixed(1)}" height="20" rx="10"/>` +
    `<text x="${labelAt.x.toFixed(1)}" y="${(labelAt.y + 4).toFixed(1)}" text-anchor="middle">${escapeHtml(text)}</text></g>`
  );
}

function description(route: RouteDetail): string {
  const entry = route.steps.find((step) => step.entry);
  const ways = route.steps.flatMap((step) => step.choices).length;
  return (
    `${route.steps.length} step${route.steps.length === 1 ? '' : 's'} and ${ways} choice${ways === 1 ? '' : 's'}, starting with “${entry?.video.title ?? ''}”. ` +
    `${formatCount(route.starts)} visits started, ${formatCount(route.completions)} completed (${formatShare(route.completion_rate)}). ` +
    'Each step and choice, with its numbers, is listed under the picture.'
  );
}

/** The graph as a figure; `id` must be unique on the page. */
export function routeGraph(route: RouteDetail, id: string): string {
  const layout = layoutRoute(route);
  const scale = Math.max(route.starts, ...route.steps.map((step) => step.reached));
  const problemSteps = new Set(route.problems.map((problem) => problem.step_id).filter((stepId): stepId is string => stepId !== null));
  const edges = layout.edges.map((edge) => edgeLine(edge, route.starts > 0, `${id}-arrow`)).join('');
  const boxes = layout.nodes.map((node: GraphNode) => (node.kind === 'step' ? stepBox(node, scale, problemSteps) : exitBox(node))).join('');
  const title = `The graph of “${route.name}”`;
  return (
    `<figure class="route-graph" aria-labelledby="${id}-caption"><figcaption id="${id}-caption" class="visually-hidden">${escapeHtml(title)}</figcaption>` +
    `<div class="graph-scroll" role="region" tabindex="0" aria-label="The route’s graph (scrolls sideways when wide)">` +
    `<svg viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(description(route))}</desc>` +
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrow-head" d="M0 0 L10 5 L0 10 z"/></marker></defs>` +
    `${edges}${boxes}</svg></div></figure>`
  );
}
