/**
 * Charts drawn on the server as accessible SVG (DESIGN §10): each is a <figure> whose <svg> has
 * role="img", a <title> and a <desc> that says what it shows in words, and whose numbers are in a
 * table beside it (collapsed under "The numbers"), so a screen reader, a copy-paste and a person
 * without colour vision all get the same facts. No script, no inline style (the pages' policy allows
 * only our stylesheet): colours come from classes in dashboard.css.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export interface ChartPoint {
  /** The label on the horizontal axis and in the table: "Nov 3", "42%". */
  label: string;
  value: number;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export interface ChartMarker {
  /** Index into the points where the marker stands. */
  at: number;
  label: string;
  kind: 'moment' | 'drop';
}

export interface LineChartSpec {
  /** Unique on the page: ids of the title and description derive from it. */
  id: string;
  title: string;
  /** A sentence that says what the chart shows and what stands out. */
  description: string;
  series: ChartSeries[];
  /** How a value is written on the axis and in the table. */
  format: (value: number) => string;
  /** The vertical axis starts at 0 and ends at least here (a share: 1). */
  minimumTop?: number;
  markers?: ChartMarker[];
  /** The first column's heading in the table ("Day", "Position"). */
  xHeading: string;
  /** The drawing's width in its own units (640): a chart across a whole page is drawn wider, so its text stays small. */
  width?: number;
}

const DEFAULT_WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };

/** A "nice" top for the axis: 1, 2 or 5 times a power of ten, at least `value`. */
export function niceTop(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function axisTicks(top: number, format: (value: number) => string, width: number): string {
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  return [0, 0.5, 1]
    .map((share) => {
      const y = PAD.top + plotHeight * (1 - share);
      return (
        `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${y}" y2="${y}"/>` +
        `<text class="tick" x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${escapeHtml(format(top * share))}</text>`
      );
    })
    .join('');
}

/** Up to six evenly spaced labels under the axis: enough to read, never crowded. */
function xLabels(labels: string[], xOf: (index: number) => string): string {
  const last = labels.length - 1;
  if (labels.length === 0) return '';
  const every = Math.max(1, Math.ceil(labels.length / 6));
  return labels
    .map((label, index) =>
      (index % every === 0 && (index === last || last - index >= every / 2)) || index === last
        ? `<text class="tick" x="${xOf(index)}" y="${HEIGHT - 8}" text-anchor="${index === 0 && last > 0 ? 'start' : index === last && last > 0 ? 'end' : 'middle'}">${escapeHtml(label)}</text>`
        : '',
    )
    .join('');
}

function numbersTable(spec: { id: string; xHeading: string; series: ChartSeries[]; format: (value: number) => string }): string {
  const labels = spec.series[0]?.points.map((point) => point.label) ?? [];
  const head = `<tr><th scope="col">${escapeHtml(spec.xHeading)}</th>${spec.series.map((s) => `<th scope="col">${escapeHtml(s.name)}</th>`).join('')}</tr>`;
  const rows = labels
    .map(
      (label, index) =>
        `<tr><th scope="row">${escapeHtml(label)}</th>${spec.series
          .map((s) => {
            const point = s.points[index];
            return `<td>${point ? escapeHtml(spec.format(point.value)) : '—'}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return `<details class="numbers"><summary>The numbers</summary><div class="table-scroll"><table id="${escapeHtml(spec.id)}-table"><thead>${head}</thead><tbody>${rows}</tbody></table></div></details>`;
}

function figure(
  spec: { id: string; title: string; description: string },
  width: number,
  svgBody: string,
  legend: string,
  table: string,
): string {
  const id = escapeHtml(spec.id);
  return (
    `<figure class="chart" aria-labelledby="${id}-caption">` +
    `<figcaption id="${id}-caption">${escapeHtml(spec.title)}</figcaption>` +
    // On a phone the drawing keeps a readable size and scrolls sideways inside its box.
    `<div class="plot" tabindex="0"><svg viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">${escapeHtml(spec.title)}</title><desc id="${id}-desc">${escapeHtml(spec.description)}</desc>${svgBody}</svg></div>` +
    legend +
    table +
    '</figure>'
  );
}

/** Lines over a shared horizontal axis (days, positions in a video), with optional markers. */
export function lineChart(spec: LineChartSpec): string {
  const width = spec.width ?? DEFAULT_WIDTH;
  const count = Math.max(...spec.series.map((s) => s.points.length), 0);
  const highest = Math.max(0, ...spec.series.flatMap((s) => s.points.map((p) => p.value)));
  const top = niceTop(Math.max(highest, spec.minimumTop ?? 0));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => (PAD.left + (count <= 1 ? plotWidth / 2 : (plotWidth * index) / (count - 1))).toFixed(1);
  const y = (value: number) => (PAD.top + plotHeight * (1 - Math.min(value, top) / top)).toFixed(1);
  const lines = spec.series
    .map((series, index) => {
      const path = series.points.map((point, i) => `${i === 0 ? 'M' : 'L'}${x(i)} ${y(point.value)}`).join(' ');
      return `<path class="line s${index % 4}" d="${path}"/>`;
    })
    .join('');
  const markers = (spec.markers ?? [])
    .filter((marker) => marker.at >= 0 && marker.at < count)
    .map((marker) => {
      const value = spec.series[0]?.points[marker.at]?.value ?? 0;
      return `<g class="marker ${marker.kind}"><line x1="${x(marker.at)}" x2="${x(marker.at)}" y1="${PAD.top}" y2="${HEIGHT - PAD.bottom}"/><circle cx="${x(marker.at)}" cy="${y(value)}" r="4"/><title>${escapeHtml(marker.label)}</title></g>`;
    })
    .join('');
  const labels = spec.series[0]?.points.map((point) => point.label) ?? [];
  const legend =
    spec.series.length > 1 || (spec.markers?.length ?? 0) > 0
      ? `<ul class="legend">${spec.series.map((s, i) => `<li><span class="swatch s${i % 4}" aria-hidden="true"></span>${escapeHtml(s.name)}</li>`).join('')}${
          spec.markers?.some((m) => m.kind === 'moment') ? '<li><span class="swatch moment" aria-hidden="true"></span>Key moment</li>' : ''
        }${spec.markers?.some((m) => m.kind === 'drop') ? '<li><span class="swatch drop" aria-hidden="true"></span>Drop-off</li>' : ''}</ul>`
      : '';
  return figure(
    spec,
    width,
    axisTicks(top, spec.format, width) + xLabels(labels, x) + lines + markers,
    legend,
    numbersTable({ ...spec, series: spec.series }),
  );
}

export interface BarChartSpec {
  id: string;
  title: string;
  description: string;
  bars: ChartPoint[];
  format: (value: number) => string;
  xHeading: string;
  valueHeading: string;
  width?: number;
}

/** Vertical bars, one per label (revenue by day, reach per step). */
export function barChart(spec: BarChartSpec): string {
  const width = spec.width ?? DEFAULT_WIDTH;
  const count = spec.bars.length;
  const top = niceTop(Math.max(0, ...spec.bars.map((bar) => bar.value)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = count === 0 ? plotWidth : plotWidth / count;
  const barWidth = Math.max(1, slot * 0.7);
  const xCenter = (index: number) => (PAD.left + slot * index + slot / 2).toFixed(1);
  const bars = spec.bars
    .map((bar, index) => {
      // A negative value (a day of net refunds) draws no bar; its number is in the table.
      const height = (plotHeight * Math.max(0, Math.min(bar.value, top))) / top;
      return `<rect class="bar" x="${(Number(xCenter(index)) - barWidth / 2).toFixed(1)}" y="${(PAD.top + plotHeight - height).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}"><title>${escapeHtml(`${bar.label}: ${spec.format(bar.value)}`)}</title></rect>`;
    })
    .join('');
  return figure(
    spec,
    width,
    axisTicks(top, spec.format, width) +
      xLabels(
        spec.bars.map((bar) => bar.label),
        xCenter,
      ) +
      bars,
    '',
    numbersTable({ id: spec.id, xHeading: spec.xHeading, series: [{ name: spec.valueHeading, points: spec.bars }], format: spec.format }),
  );
}

/** A horizontal share bar for tables (completion, a choice's share): the number is always written beside it. */
export function shareBar(share: number, label: string): string {
  const percent = Math.max(0, Math.min(100, Math.round(share * 100)));
  return `<span class="share"><svg viewBox="0 0 100 8" aria-hidden="true" focusable="false"><rect class="track" width="100" height="8" rx="4"/><rect class="fill" width="${percent}" height="8" rx="4"/></svg><span>${escapeHtml(label)}</span></span>`;
}
