// Plans as a firm writes them, for the plan and provisioning tests: a 50K end-of-day evaluation (2,000.00 drawdown,
// 1,000.00 daily loss, 3,000.00 target in 5 days), the same with one field set, and the FieldError a parse throws.
import { FieldError } from '../../../src/core/validation/input-fields.js';

export function basePlan(): Record<string, unknown> {
  return {
    starting_balance: '50000',
    risk_profile: {
      max_drawdown_mode: 'eod_balance',
      max_drawdown_value: '2000',
      max_drawdown_limit: '0',
      daily_loss_value: '1000',
    },
    passing_criteria: { profit_target: '3000', min_trading_days: 5 },
  };
}

/** basePlan() with the field at the dotted `path` set to `value`. */
export function withField(path: string, value: unknown): Record<string, unknown> {
  const doc = structuredClone(basePlan());
  const keys = path.split('.');
  let node: Record<string, unknown> = doc;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
  return doc;
}

export function errorOf(fn: () => unknown): FieldError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FieldError) return error;
    throw error;
  }
  throw new Error('expected a FieldError');
}
