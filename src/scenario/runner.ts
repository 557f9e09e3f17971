// Runs a validated scenario against a fresh kernel: accounts from its plans, market files replayed as the
// clock advances, each step at the current simulated time with the next sequence number, expectations
// checked against the simulator's state.
import { filter, lastValueFrom, takeWhile } from 'rxjs';
import type { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { parseSymbol, type ProductFamily } from '../core/instruments.js';
import type { AccountCommandType } from '../core/kernel/write/commands.js';
import { applyInput } from '../core/kernel/persistence/journal-replay.js';
import type { JournalOut } from '../core/kernel/persistence/journal.js';
import { Kernel } from '../core/kernel/kernel.js';
import { parsePrint } from '../core/kernel/write/print-input.js';
import { planJson } from '../core/kernel/read/risk-json.js';
import { formatCents } from '../core/money.js';
import { marketFileReferences } from '../market/market-references.js';
import { marketPrints$ } from '../market/sources.js';
import type { Outcome } from '../core/outcome.js';
import { checkExpectations, type ExpectationResult, type SubjectFields } from './expectations.js';
import { TimelineRecorder, type AccountTimeline } from './account-timeline.js';
import { scenarioFolder } from './scenario-market.js';
import { PricePaths } from './price-paths.js';
import { StepsBetweenPrints } from './steps-between-prints.js';
import type { ExpectStep, FirmControlKind, HttpStatus, Scenario, ScenarioStep } from './scenario-types.js';
import { finalState, subjectFields, type FinalState } from './scenario-state.js';

export interface RunOptions {
  calendar: GlobexCalendar;
  /** Overrides the scenario's seed. */
  seed?: number;
  /**
   * Told the prints replayed so far and the simulated time: every 100,000 prints, and at each session roll (a long
   * `advance` rolls thousands of sessions without a print).
   */
  onProgress?: (printsReplayed: number, timeMs: number) => void;
  /**
   * Where the journal goes as the run writes it (a replay's events.jsonl), instead of being kept: the run's
   * `journal` and `journalPieces` then refuse to be read.
   */
  journalTo?: JournalOut;
}

export interface ScenarioRun {
  scenario: Scenario;
  seed: number;
  passed: boolean;
  expectations: ExpectationResult[];
  /** The journal: every input and event, one JSON line each (joined when first read; kept unless `journalTo`). */
  readonly journal: string;
  /** The journal in pieces whose concatenation is `journal`, for hashing it without joining it. */
  readonly journalPieces: readonly string[];
  final: FinalState;
  marketPrints: number;
  printsBeforeStart: number;
  kernel: Kernel;
  /** Equity and floors of each account over the run (by account id), for the report's charts. */
  timelines: ReadonlyMap<string, AccountTimeline>;
  /** The run's prints per instrument, within a budget: what moved equity between the timelines' samples. */
  prices: PricePaths;
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<ScenarioRun> {
  const seed = options.seed ?? scenario.seed;
  const kernel = new Kernel({
    startMs: scenario.startMs,
    seed,
    calendar: options.calendar,
    fillModel: scenario.fillModel,
    rollFamily: rollFamilyOf(scenario),
    ...(scenario.riskLoadDelayMs === undefined ? {} : { riskLoadDelayMs: scenario.riskLoadDelayMs }),
    ...(options.journalTo ? { journal: options.journalTo } : {}),
  });
  const accountIds = openAccounts(kernel, scenario);
  // The journal names the market files once instead of a line per print (docs/scenarios.md#the-journal).
  if (scenario.market.length > 0)
    kernel.referenceMarketFiles(marketFileReferences(scenario.market, scenarioFolder(scenario.file)));
  const prices = new PricePaths();
  const timeline = new TimelineRecorder(kernel, () => prices.pin());
  const context: StepContext = {
    kernel,
    accountIds,
    orderIds: new Map(),
    ocoGroups: new Map(),
    expectations: [],
    prices,
  };
  const { onProgress } = options;
  // The market files as an RxJS stream of print batches, the steps placed among them; reading stops (and the
  // files close) once the last step has run.
  const replay = new StepsBetweenPrints(kernel, scenario.steps, scenario.startMs, {
    advance: (step) => void kernel.dispatch({ type: 'advance', to_ms: step.timeMs }),
    run: (step) => runStep(step, context),
    afterStep: (step) => timeline.afterStep(step),
    prices,
    ...(onProgress ? { onProgress } : {}),
  });
  const rolls = onProgress
    ? kernel.events$
        .pipe(filter((event) => event.type === 'session.rolled'))
        .subscribe((event) => onProgress(replay.printsReplayed, event.timeMs))
    : undefined;
  await lastValueFrom(marketPrints$(scenario.market).pipe(takeWhile((batch) => replay.take(batch))), {
    defaultValue: undefined,
  });
  replay.finish();
  rolls?.unsubscribe();
  kernel.journal.flush();
  const expectations = context.expectations;
  let pieces: string[] | undefined;
  const journalPieces = () => (pieces ??= kernel.journal.pieces());
  let joined: string | undefined;
  return {
    scenario,
    seed,
    passed: expectations.every((e) => e.passed),
    expectations,
    get journalPieces() {
      return journalPieces();
    },
    get journal() {
      return (joined ??= journalPieces().join(''));
    },
    final: finalState(kernel, accountIds),
    marketPrints: replay.printsReplayed,
    printsBeforeStart: replay.printsBeforeStart,
    kernel,
    timelines: timeline.accounts,
    prices,
  };
}

/** Opens the scenario's accounts: their kernel ids by alias. */
function openAccounts(kernel: Kernel, scenario: Scenario): Map<string, string> {
  const accountIds = new Map<string, string>();
  for (const account of scenario.accounts) {
    const opened = kernel.dispatch({
      type: 'open_account',
      alias: account.alias,
      firm_id: 'scenario',
      plan: planJson(account.plan),
      ...(account.pricePaidCents === undefined ? {} : { price_paid: formatCents(account.pricePaidCents) }),
    });
    if (opened.ok) accountIds.set(account.alias, opened.body.account_id);
  }
  return accountIds;
}

/** Sessions roll by the product group of the scenario's market data (its first file), else equity index. */
function rollFamilyOf(scenario: Scenario): ProductFamily {
  const instrument = scenario.market[0]?.instrument;
  return instrument ? parseSymbol(instrument).spec.family : 'equity_index';
}

interface StepContext {
  kernel: Kernel;
  accountIds: Map<string, string>;
  orderIds: Map<string, string>;
  ocoGroups: Map<string, string>;
  expectations: ExpectationResult[];
  prices: PricePaths;
}

function runStep(step: Exclude<ScenarioStep, { kind: 'at' | 'advance' }>, ctx: StepContext): void {
  const { kernel } = ctx;
  const account = (alias: string) => ctx.accountIds.get(alias) ?? alias;
  const order = (ref: string) => ctx.orderIds.get(ref) ?? ref;
  switch (step.kind) {
    case 'tick': {
      const tick = { type: 'tick', instrument_id: step.instrument, price: step.price } as const;
      if (kernel.dispatch(step.size === undefined ? tick : { ...tick, size: step.size }).ok) {
        const print = parsePrint(step.instrument, step.price);
        ctx.prices.add(print.symbol, print.priceTicks, kernel.nowMs);
      }
      return;
    }
    case 'fill': {
      const fill = {
        type: 'record_fill',
        account_id: account(step.account),
        instrument_id: step.instrument,
        side: step.side,
        quantity: step.quantity,
        price: step.price,
      } as const;
      const outcome = kernel.dispatch(step.atMs === undefined ? fill : { ...fill, occurred_at: step.atMs });
      return checkStatus(step, `fill ${step.account}`, outcome, undefined, ctx);
    }
    case 'order': {
      const body = { ...orderBody(step, account(step.account)), ...prices(step) };
      const outcome = kernel.dispatch({ type: 'place_order', body });
      if (outcome.ok) ctx.orderIds.set(step.ref, outcome.body.order_id);
      return checkStatus(step, `order ${step.ref}`, outcome, step.expectStatus, ctx);
    }
    case 'modify': {
      const body = { ...(step.quantity === undefined ? {} : { quantity: step.quantity }), ...prices(step) };
      const outcome = kernel.dispatch({ type: 'modify_order', order_id: order(step.ref), body });
      return checkStatus(step, `order ${step.ref}`, outcome, step.expectStatus, ctx);
    }
    case 'cancel': {
      const outcome = kernel.dispatch({ type: 'cancel_order', order_id: order(step.ref) });
      return checkStatus(step, `order ${step.ref}`, outcome, step.expectStatus, ctx);
    }
    case 'oco': {
      const ids = step.refs.map(order);
      const groupId = ctx.ocoGroups.get(step.group) ?? step.group;
      const outcome =
        step.action === 'link'
          ? kernel.dispatch({ type: 'link_oco', body: { order_ids: ids } })
          : kernel.dispatch({ type: 'add_oco_companion', body: { oco_group_id: groupId, order_id: ids[0]! } });
      if (outcome.ok && step.action === 'link') ctx.ocoGroups.set(step.group, outcome.body.oco_group_id);
      return checkStatus(step, `oco ${step.group}`, outcome, step.expectStatus, ctx);
    }
    case 'expect':
      ctx.expectations.push(...expect(step, ctx));
      return;
    case 'input':
      return applyInput(kernel, { seq: 0, time_ms: step.timeMs, type: `input.${step.type}`, data: step.data });
    default: {
      const outcome = kernel.dispatch({
        type: FIRM_OPERATIONS[step.kind],
        account_id: account(step.account),
        body: step.body,
      });
      return checkStatus(step, `${step.kind} ${step.account}`, outcome, step.expectStatus, ctx);
    }
  }
}

/** An order step's body, but its prices. */
function orderBody(step: Extract<ScenarioStep, { kind: 'order' }>, accountId: string): Record<string, unknown> {
  return {
    account_id: accountId,
    instrument_id: step.instrument,
    side: step.side,
    type: step.orderType,
    quantity: step.quantity,
    time_in_force: step.tif,
  };
}

/** The prices an order or modify step names, as body fields. */
function prices(step: { limitPrice?: string | undefined; stopPrice?: string | undefined }): Record<string, string> {
  return {
    ...(step.limitPrice === undefined ? {} : { limit_price: step.limitPrice }),
    ...(step.stopPrice === undefined ? {} : { stop_price: step.stopPrice }),
  };
}

/** Scenario firm-control steps and the kernel commands they dispatch. */
const FIRM_OPERATIONS: Record<FirmControlKind, AccountCommandType> = {
  lockout: 'lockout',
  unlock: 'unlock',
  flatten: 'flatten',
  adjust: 'adjust_balance',
  daily_loss_trigger: 'set_daily_loss_trigger',
  reanchor: 'reanchor_daily_loss',
  max_loss_limit: 'set_max_loss_limit',
};

/** A step's HTTP-style outcome: it must match `expect_status` when given, else succeed. */
function checkStatus(
  step: ScenarioStep,
  subject: string,
  outcome: Outcome<unknown>,
  expectStatus: HttpStatus | undefined,
  ctx: StepContext,
): void {
  if (expectStatus === undefined && outcome.ok) return;
  const passed = expectStatus === undefined ? outcome.ok : outcome.status === expectStatus;
  const result: ExpectationResult = {
    step: step.index,
    passed,
    subject,
    field: 'http_status',
    expected: expectStatus ?? '2xx',
    actual: outcome.status,
  };
  if (!outcome.ok) result.detail = `${outcome.body.code}: ${outcome.body.error}`;
  ctx.expectations.push(result);
}

function expect(step: ExpectStep, ctx: StepContext): ExpectationResult[] {
  const { subject } = step;
  let label: string;
  let fields: SubjectFields;
  if (subject.kind === 'account') {
    label = `account ${subject.account}`;
    fields = subjectFields.account(ctx.kernel, ctx.accountIds.get(subject.account)!);
  } else if (subject.kind === 'order') {
    label = `order ${subject.ref}`;
    const id = ctx.orderIds.get(subject.ref);
    fields = id === undefined ? { status: 'NOT_PLACED' } : subjectFields.order(ctx.kernel, id);
    const last = id === undefined ? undefined : subjectFields.orderStates(ctx.kernel, id).at(-1);
    return explainOrder(checkExpectations(step, label, fields), fields, last);
  } else {
    label = `position ${subject.account} ${subject.instrument}`;
    fields = subjectFields.position(ctx.kernel, ctx.accountIds.get(subject.account)!, subject.instrument);
  }
  return checkExpectations(step, label, fields);
}

/**
 * A failed check on an order says where the order stands and why: a REJECTED order, why the venue refused it
 * (`market_closed: …`), as the report does; any other, its last status record (`PARTIALLY_FILLED: modify rejected:
 * quantity 1 is not above the filled quantity 1`), which tells a modify or cancel that did not take from one that
 * has not arrived yet.
 */
function explainOrder(
  results: ExpectationResult[],
  fields: SubjectFields,
  last: { status: string; reason?: string | undefined } | undefined,
): ExpectationResult[] {
  const error = fields.error as { code?: unknown; message?: unknown } | null | undefined;
  const detail =
    fields.status === 'REJECTED' && error
      ? `${String(error.code)}: ${String(error.message)}`
      : last && `last status record ${last.status}${last.reason === undefined ? '' : `: ${last.reason}`}`;
  if (!detail) return results;
  return results.map((r) => (r.passed ? r : { ...r, detail }));
}
