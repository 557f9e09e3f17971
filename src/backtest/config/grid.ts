// The plan-parameter grid: the cartesian product of dotted plan fields (risk_profile.max_drawdown_value: [...]).
// Cells are plain data (index, values, label), so a worker thread or a remote queue can run any one of them.
import type { Fields } from '../../core/validation/input-fields.js';

export interface GridAxis {
  key: string;
  values: unknown[];
}

export interface GridCell {
  index: number;
  /** Dotted field -> value for this cell, in axis order. */
  values: Record<string, unknown>;
  /** "risk_profile.max_drawdown_mode=eod_balance risk_profile.max_drawdown_value=2000". */
  label: string;
}

/** Every combination, the first axis varying slowest; no axes gives one cell: the base plan itself. */
export function expandGrid(axes: readonly GridAxis[]): GridCell[] {
  let combos: Array<Record<string, unknown>> = [{}];
  for (const axis of axes)
    combos = combos.flatMap((combo) => axis.values.map((value) => ({ ...combo, [axis.key]: value })));
  return combos.map((values, index) => ({ index, values, label: labelOf(values) }));
}

function labelOf(values: Record<string, unknown>): string {
  const parts = Object.entries(values).map(([key, value]) => `${key}=${gridValueText(value)}`);
  return parts.length === 0 ? 'base plan' : parts.join(' ');
}

/**
 * A grid value as the outputs write it: null as none, a list or mapping (risk_profile.scaling's tiers,
 * position_limits.max_contracts_per_root) as its JSON, anything else as written.
 */
export function gridValueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The base plan with the cell's values set by dotted path; null removes the field. Nothing shared is changed. */
export function planForCell(base: Fields, values: Record<string, unknown>): Record<string, unknown> {
  const plan = structuredClone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    const path = key.split('.');
    let node = plan;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      node[part] = typeof next === 'object' && next !== null ? next : {};
      node = node[part] as Record<string, unknown>;
    }
    const leaf = path[path.length - 1]!;
    if (value === null) delete node[leaf];
    else node[leaf] = value;
  }
  return plan;
}

/** Axes written `funded.<path>` vary the funnel's funded plan (docs/backtesting.md#the-funnel). */
const FUNDED_PREFIX = 'funded.';

export function isFundedAxis(key: string): boolean {
  return key.startsWith(FUNDED_PREFIX);
}

/** A cell's values split by plan: the evaluation (base) plan's, and the funded plan's (prefix removed). */
export function splitCellValues(values: Record<string, unknown>): {
  evaluation: Record<string, unknown>;
  funded: Record<string, unknown>;
} {
  const evaluation: Record<string, unknown> = {};
  const funded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (isFundedAxis(key)) funded[key.slice(FUNDED_PREFIX.length)] = value;
    else evaluation[key] = value;
  }
  return { evaluation, funded };
}
