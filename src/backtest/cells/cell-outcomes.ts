// What a cell's accounts came to once its period is over (docs/backtesting.md#what-is-measured): each trader's
// evaluation outcome, first evaluation and money (the funnel's path settled at the period's end), and with the firm's
// records, each recorded trader against its record (docs/backtesting.md#validation-against-the-firms-records).
import type { GlobexCalendar } from '../../core/calendar/index.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import type { GridCell } from '../config/grid.js';
import type { TraderValidation } from '../validation/compare-records.js';
import { validateCell } from '../validation/validate-cell.js';
import type { CellSetup } from './cell-setup.js';
import {
  evaluationOnlyEconomics,
  failureDayCount,
  firstOutcomeOf,
  funnelEconomics,
  traderOutcome,
  type TraderOutcome,
} from './outcomes.js';

/** Each trader's outcome, in roster order, once the kernel is at `finalRollMs`, the roll after the last session. */
export function traderOutcomes(
  config: BacktestConfig,
  setup: CellSetup,
  calendar: GlobexCalendar,
  finalRollMs: number,
): TraderOutcome[] {
  const { kernel, sessions, family } = setup;
  const dayIndexOf = dayIndexIn(sessions);
  const failedAtDay = (accountId: string) => {
    const account = kernel.read.accountHistory(accountId);
    const history = account.statusHistory;
    return dayIndexOf(history[history.length - 1]!.occurredAtMs, failureDayCount(account.failedRule));
  };
  return setup.participants.map((p): TraderOutcome => {
    const evaluationAccounts = p.funnel ? p.funnel.evaluationAccounts : [p.accountId];
    const histories = evaluationAccounts.map((id) => kernel.read.accountHistory(id));
    const evaluation = traderOutcome(p.spec.id, p.spec.strategy, histories, sessions.length, dayIndexOf);
    const first = firstOutcomeOf(histories[0]!, sessions.length, dayIndexOf);
    if (!p.funnel)
      return {
        ...evaluation,
        ...evaluationOnlyEconomics(evaluation, config.economics.pricePaidCents, config.economics.payoutShare),
        droppedFills: p.dropped,
        positionsNeverHad: p.neverHad.count,
        ...first,
      };
    p.funnel.atEnd(
      sessions[sessions.length - 1]!,
      sessions.length,
      failedAtDay,
      calendar.tradeDateOfFamily(finalRollMs, family),
    );
    return {
      ...evaluation,
      ...funnelEconomics(p.funnel.path),
      funnel: p.funnel.path,
      droppedFills: p.dropped,
      positionsNeverHad: p.neverHad.count,
      ...first,
    };
  });
}

/**
 * A breach counts the session it happened in; a pass, decided at a roll, counts the sessions closed by then, and so
 * does a failure by a rule judged at a roll (the time limit).
 */
function dayIndexIn(sessions: CellSetup['sessions']) {
  return (timeMs: number, at: 'in_session' | 'at_roll') =>
    at === 'at_roll'
      ? sessions.filter((s) => s.closeMs <= timeMs).length
      : Math.max(1, sessions.filter((s) => s.openMs <= timeMs).length);
}

/** The reference cell of a config with records: each recorded trader's outcome and failures against its record. */
export function cellValidation(
  config: BacktestConfig,
  cell: GridCell,
  setup: CellSetup,
  calendar: GlobexCalendar,
  traders: TraderOutcome[],
): TraderValidation[] | undefined {
  const { kernel, records, family } = setup;
  if (records.length === 0 || cell.index !== config.compareTo) return undefined;
  const evaluationAccountsOf = new Map(
    setup.participants.map((p) => [p.spec.id, p.funnel ? p.funnel.evaluationAccounts : [p.accountId]]),
  );
  const failuresOf = (trader: string) =>
    evaluationAccountsOf.get(trader)!.flatMap((id) =>
      kernel.read
        .accountHistory(id)
        .statusHistory.filter((record) => record.status === 'failed')
        .map((record) => ({
          atMs: record.occurredAtMs,
          tradeDate: calendar.tradeDateOfFamily(record.occurredAtMs, family),
          reason: record.reason,
          ...(record.rule === undefined ? {} : { rule: record.rule }),
        })),
    );
  const resets = config.economics.funnel?.evaluation.reset !== undefined;
  return validateCell(records, traders, failuresOf, setup.sessions, { resets });
}
