// A fixed budget of points per chart: a line drawn 1,100 pixels wide cannot show more than a few points per pixel
// column, so a long replay's timeline is cut into `columns` equal stretches of time and each keeps its lowest and
// highest equity and its last point, in time order. The lowest keeps a breach visible; the last keeps the floors'
// steps where they end.
import type { TimelinePoint } from '../scenario/account-timeline.js';

/** Columns of a chart 1,100 pixels wide, about two pixels each. */
export const CHART_COLUMNS = 550;

export function withinBudget(points: readonly TimelinePoint[], columns = CHART_COLUMNS): TimelinePoint[] {
  if (points.length <= 3 * columns) return [...points];
  const first = points[0]![0];
  const span = points[points.length - 1]![0] - first || 1;
  const kept: TimelinePoint[] = [];
  let start = 0;
  while (start < points.length) {
    const column = Math.min(columns - 1, Math.floor(((points[start]![0] - first) / span) * columns));
    let end = start;
    let low = start;
    let high = start;
    while (
      end + 1 < points.length &&
      Math.min(columns - 1, Math.floor(((points[end + 1]![0] - first) / span) * columns)) === column
    ) {
      end++;
      if (points[end]![1] < points[low]![1]) low = end;
      if (points[end]![1] > points[high]![1]) high = end;
    }
    for (const index of [...new Set([low, high, end])].sort((a, b) => a - b)) kept.push(points[index]!);
    start = end + 1;
  }
  return kept;
}

/**
 * The points of a line that shape it: a point inside a run of equal values lies on the flat segment its neighbours
 * draw anyway, plain or stepped. A floor holds its value for hours: its line drawn from its steps alone looks the same
 * and costs the chart a few points instead of thousands.
 */
export function withoutFlatRuns<T extends readonly [unknown, number]>(data: readonly T[]): T[] {
  return data.filter(
    (point, i) => i === 0 || i === data.length - 1 || point[1] !== data[i - 1]![1] || point[1] !== data[i + 1]![1],
  );
}
