/**
 * Where each box of a route's graph stands: steps in columns by how many choices it takes to reach
 * them from the entry step (the entry step alone in the first), each way out of the route (a link,
 * the lead form, a booking page, the end card) as a small box in the column after its step, steps no
 * choice reaches in a last column of their own. Within a column, boxes follow the rows of the boxes
 * that lead to them, so arrows cross as little as a single pass can make them.
 */
import type { RouteChoice, RouteDetail, RouteStep } from './route-types.ts';

export const BOX = { width: 196, height: 104 } as const;
export const EXIT = { width: 148, height: 40 } as const;
const COLUMN_GAP = 190;
const ROW_GAP = 30;
export const MARGIN = 16;

export interface StepNode {
  kind: 'step';
  step: RouteStep;
  number: number;
  reachable: boolean;
  column: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ExitNode {
  kind: 'exit';
  choice: RouteChoice;
  from: string;
  column: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type GraphNode = StepNode | ExitNode;

export interface GraphEdge {
  choice: RouteChoice;
  from: StepNode;
  to: GraphNode;
  /** The edge's place among its step's choices, to spread their starts over the box's side. */
  index: number;
  of: number;
  /** For an arrow back to an earlier step (or the same one): the lane it runs in, over or under every box. */
  loop?: { side: 'over' | 'under'; y: number };
}

export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

/** Columns by breadth-first distance from the entry step over the choices that play a step. */
function columnsOf(route: RouteDetail): Map<string, number> {
  const byId = new Map(route.steps.map((step) => [step.step_id, step]));
  const column = new Map<string, number>([[route.entry_step_id, 0]]);
  const queue = [route.entry_step_id];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const choice of byId.get(id)?.choices ?? []) {
      if (choice.target === 'step' && choice.to_step_id && byId.has(choice.to_step_id) && !column.has(choice.to_step_id)) {
        column.set(choice.to_step_id, (column.get(id) ?? 0) + 1);
        queue.push(choice.to_step_id);
      }
    }
  }
  return column;
}

export function layoutRoute(route: RouteDetail): GraphLayout {
  const reached = columnsOf(route);
  const deepest = Math.max(0, ...reached.values());
  const steps: StepNode[] = route.steps.map((step, index) => ({
    kind: 'step',
    step,
    number: index + 1,
    reachable: reached.has(step.step_id),
    // Unreachable steps wait after everything reachable (and after its ways out).
    column: reached.get(step.step_id) ?? deepest + 2,
    x: 0,
    y: 0,
    width: BOX.width,
    height: BOX.height,
  }));
  const stepById = new Map(steps.map((node) => [node.step.step_id, node]));
  const nodes: GraphNode[] = [...steps];
  const edges: GraphEdge[] = [];
  for (const from of steps) {
    const choices = from.step.choices;
    choices.forEach((choice, index) => {
      let to: GraphNode | undefined = choice.to_step_id ? stepById.get(choice.to_step_id) : undefined;
      if (!to) {
        to = { kind: 'exit', choice, from: from.step.step_id, column: from.column + 1, x: 0, y: 0, width: EXIT.width, height: EXIT.height };
        nodes.push(to);
      }
      edges.push({ choice, from, to, index, of: choices.length });
    });
  }
  const columns = new Map<number, GraphNode[]>();
  for (const node of nodes) columns.set(node.column, [...(columns.get(node.column) ?? []), node]);
  const order = [...columns.keys()].sort((a, b) => a - b);
  // Compact the column numbers (an empty column between reachable and unreachable steps closes up).
  const rowOf = new Map<GraphNode, number>();
  let height = 0;
  order.forEach((columnNumber, place) => {
    const column = columns.get(columnNumber) as GraphNode[];
    const parentRow = (node: GraphNode) => {
      const rows = edges.filter((edge) => edge.to === node && rowOf.has(edge.from)).map((edge) => rowOf.get(edge.from) as number);
      return rows.length === 0 ? Number.POSITIVE_INFINITY : rows.reduce((a, b) => a + b, 0) / rows.length;
    };
    const sorted = column
      .map((node, index) => ({ node, index, parent: parentRow(node) }))
      .sort((a, b) => a.parent - b.parent || a.index - b.index);
    let y = MARGIN;
    sorted.forEach(({ node }, row) => {
      rowOf.set(node, row);
      node.column = place;
      node.x = MARGIN + place * (BOX.width + COLUMN_GAP) + (node.kind === 'exit' ? (BOX.width - EXIT.width) / 2 : 0);
      node.y = y;
      y += node.height + ROW_GAP;
    });
    height = Math.max(height, y - ROW_GAP + MARGIN);
  });
  // Centre each column on the tallest one.
  for (const columnNumber of order) {
    const column = columns.get(columnNumber) as GraphNode[];
    const bottom = Math.max(...column.map((node) => node.y + node.height));
    const shift = (height - MARGIN - bottom) / 2;
    for (const node of column) node.y += Math.max(0, shift);
  }
  // Arrows back to an earlier step run in lanes over or under every box, on the side where fewer
  // boxes stand between the two steps and the lane (the up or down stroke crosses those).
  const LANE = 18;
  const back = edges.filter((edge) => edge.to.column <= edge.from.column);
  const sides = back.map((edge) => {
    const inColumn = (node: GraphNode, above: boolean) =>
      nodes.filter((other) => other.column === node.column && other !== node && (above ? other.y < node.y : other.y > node.y)).length;
    const over = inColumn(edge.from, true) + inColumn(edge.to, true);
    const under = inColumn(edge.from, false) + inColumn(edge.to, false);
    return over < under ? 'over' : 'under';
  });
  const overCount = sides.filter((side) => side === 'over').length;
  const top = overCount > 0 ? overCount * LANE + 12 : 0;
  for (const node of nodes) node.y += top;
  let overLane = 0;
  let underLane = 0;
  back.forEach((edge, index) => {
    const side = sides[index] as 'over' | 'under';
    edge.loop =
      side === 'over' ? { side, y: top - 10 - overLane++ * LANE + MARGIN / 2 } : { side, y: top + height + 4 + underLane++ * LANE };
  });
  return {
    nodes,
    edges,
    width: MARGIN * 2 + order.length * BOX.width + Math.max(0, order.length - 1) * COLUMN_GAP,
    height: top + height + (underLane > 0 ? underLane * LANE + 12 : 0),
  };
}
