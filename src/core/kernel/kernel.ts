// The kernel: single-threaded and driven by its SimClock. Commands come in through `dispatch` (the operations the
// API exposes), market prints through `print`, events go out to listeners and the journal, and `read` answers
// queries in the API's shapes. Nothing here knows whether a command came from a scenario step, a back-test cell or
// an HTTP request (docs/architecture.md#one-kernel-many-drivers). Order of work at one print: the venue matches
// resting orders first, then positions are marked (docs/risk-rules.md#order-of-work-at-one-print): print-path.ts,
// with executions.ts booking the fills.
import { type GlobexCalendar } from '../calendar/globex-calendar.js';
import { SimClock } from '../clock.js';
import { IdGenerator } from '../ids.js';
import { parseSymbol, type ProductFamily } from '../instruments.js';
import { CommandRefusal, refusalOutcome, success, type Outcome } from '../outcome.js';
import { DEFAULT_FILL_MODEL, type FillModel } from '../orders/fill-model.js';
import { POSITION_HISTORY_TYPES } from './read/daily-positions.js';
import { PositionBook } from '../positions/index.js';
import { Provisioning } from '../accounts/provisioning.js';
import { StaffRoles } from '../accounts/staff-roles.js';
import { AccountBook } from './accounts.js';
import { ACCOUNT_COMMANDS, type AccountCommandType, type AnswerOf, type KernelCommand } from './write/commands.js';
import { AccountCommands } from './write/account-commands.js';
import type { KernelContext } from './context.js';
import { Subject, type Observable } from 'rxjs';
import type { KernelEvent, KernelEventType, KernelTimer } from './events.js';
import { Executions } from './write/executions.js';
import { FirmControl } from './write/firm-control.js';
import { Journal, type JournalOut } from './persistence/journal.js';
import type { MarketFileReference } from './persistence/market-prints.js';
import { KernelReads } from './read/reads.js';
import { OrderDesk } from './write/order-desk.js';
import { parsePrint } from './write/print-input.js';
import { PrintPath } from './write/print-path.js';
import { RiskDesk } from './risk/risk-desk.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';
import { TimedRules } from './risk/timed-rules.js';
import { TimeKeeper } from './time-keeper.js';

/** What the sandbox's journal keeps: every input (the session export replays them) and the daily-position lines. */
const SANDBOX_LINES: ReadonlySet<string> = new Set([...POSITION_HISTORY_TYPES, 'input.*']);

export interface KernelOptions {
  startMs: number;
  seed: number;
  calendar: GlobexCalendar;
  fillModel?: Partial<FillModel>;
  /**
   * The JSON-lines journal: every line (true, the default: scenario runs in tests), none (false: benchmarks
   * and back-test cells), the inputs and what daily position reads need ('positions': the sandbox), or every line
   * handed to an out as it is written and not kept (a replay's events.jsonl).
   */
  journal?: boolean | 'positions' | JournalOut;
  /** The risk engine's loading window after create and unlock (docs/risk-rules.md#the-loading-window), default 250 ms. */
  riskLoadDelayMs?: number;
  /** The product group whose sessions define the session roll of every account, default equity_index. */
  rollFamily?: ProductFamily;
}

/** The kernel's parts, for tests that check invariants across them; drivers use `dispatch` and `read`. */
export interface KernelInternals {
  readonly accounts: AccountBook;
  readonly positions: PositionBook;
  readonly desk: OrderDesk;
  readonly risk: RiskDesk;
  readonly firm: FirmControl;
  readonly provisioning: Provisioning;
}

export class Kernel {
  readonly journal: Journal;
  readonly calendar: GlobexCalendar;
  readonly rollFamily: ProductFamily;
  /** Queries in the API's shapes, with cursor paging; reads change nothing and are not journaled. */
  readonly read: KernelReads;
  private readonly clock: SimClock<KernelTimer>;
  private readonly ids: IdGenerator;
  private readonly fillModel: FillModel;
  private readonly accounts = new AccountBook();
  private readonly positions: PositionBook;
  private readonly desk: OrderDesk;
  private readonly risk: RiskDesk;
  /** Rules that act at an instant: flat times, news windows (docs/risk-rules.md#flat-by-a-time). */
  private readonly timedRules: TimedRules;
  private readonly firm: FirmControl;
  private readonly provisioning = new Provisioning();
  private readonly staffRoles = new StaffRoles(this.provisioning);
  private readonly accountCommands: AccountCommands;
  /** The clock's side: timers fired, session rolls. */
  private readonly time: TimeKeeper;
  private readonly events = new Subject<KernelEvent>();
  /**
   * The kernel's events as they happen, for the drivers' edges (report timelines, the sandbox's streams). The
   * journal is written directly, not through this stream: it is on the hot path of every command and print.
   */
  readonly events$: Observable<KernelEvent> = this.events.asObservable();
  private readonly families = new Map<string, ProductFamily>();
  /** Prints come from market files the journal references (referenceMarketFiles), counted rather than written. */
  private marketByReference = false;
  /**
   * Wiring, not state (ES private: a snapshot walks a part's fields, and these hold nothing of their own but the
   * wiring): fills booked on accounts, and the print hot path.
   */
  readonly #executions: Executions;
  readonly #printPath: PrintPath;

  constructor(options: KernelOptions) {
    this.clock = new SimClock(options.startMs);
    this.ids = new IdGenerator(options.seed);
    const journal = options.journal ?? true;
    this.journal =
      typeof journal === 'object'
        ? new Journal(true, undefined, journal)
        : new Journal(journal !== false, journal === 'positions' ? SANDBOX_LINES : undefined);
    this.calendar = options.calendar;
    this.fillModel = { ...DEFAULT_FILL_MODEL, ...options.fillModel };
    this.rollFamily = options.rollFamily ?? 'equity_index';
    const riskLoadDelayMs = options.riskLoadDelayMs ?? 250;
    const ctx: KernelContext = {
      clock: this.clock,
      ids: this.ids,
      calendar: this.calendar,
      fillModel: this.fillModel,
      rollFamily: this.rollFamily,
      emit: (type, build) => this.emit(type, build),
    };
    this.positions = new PositionBook({ newId: () => this.ids.nextUuid() });
    this.desk = new OrderDesk(ctx, this.accounts, (order, quantity) => this.risk.refusal(order, quantity));
    const familyOf = (symbol: string) => this.familyOf(symbol);
    this.risk = new RiskDesk(ctx, this.accounts, this.positions, this.desk, familyOf);
    this.#executions = new Executions(ctx, this.accounts, this.positions, this.risk, familyOf);
    this.#printPath = new PrintPath(ctx, this.desk, this.positions, this.risk, this.#executions);
    this.timedRules = new TimedRules(ctx, this.positions, this.desk, this.risk);
    this.firm = new FirmControl(ctx, this.accounts, this.risk, riskLoadDelayMs);
    this.accountCommands = new AccountCommands(
      ctx,
      this.accounts,
      this.risk,
      this.timedRules,
      this.firm,
      this.provisioning,
    );
    this.read = new KernelReads({
      clock: this.clock,
      calendar: this.calendar,
      rollFamily: this.rollFamily,
      journal: this.journal,
      accounts: this.accounts,
      positions: this.positions,
      desk: this.desk,
      risk: this.risk,
      firm: this.firm,
      provisioning: this.provisioning,
    });
    this.input('kernel_started', {
      start_ms: options.startMs,
      seed: options.seed,
      fill_model: this.fillModel,
      risk_load_delay_ms: riskLoadDelayMs,
      roll_family: this.rollFamily,
    });
    this.time = new TimeKeeper(ctx, this.accounts, this.desk, this.risk, this.timedRules);
  }

  get nowMs(): number {
    return this.clock.nowMs;
  }

  /** When the next timer (an arrival, an expiry, a session roll, a risk load) is due, if any. */
  get nextDueMs(): number | undefined {
    return this.clock.nextDueMs();
  }

  /**
   * Lets the journal go of its lines, which a store keeps (the sandbox, at each snapshot), so a long session's memory
   * does not grow with its journal. The daily position history reads them first; the session export reads the store.
   */
  letGoOfJournalLines(): void {
    this.read.catchUpDailyHistory();
    this.journal.letGo();
  }

  /**
   * Indexes by id are not in a snapshot (they are derived from the lists of orders, fills and trades): after a restore
   * they catch up here, before the first request rather than at it (docs/architecture.md#indexes-by-id).
   */
  catchUpIndexes(): void {
    this.desk.catchUpIndex();
    this.positions.catchUpIndexes();
  }

  /** The kernel's parts, for tests' invariant checks only (lint keeps drivers in src/ off it). */
  internals(): KernelInternals {
    const { accounts, positions, desk, risk, firm, provisioning } = this;
    return { accounts, positions, desk, risk, firm, provisioning };
  }

  private emit(type: KernelEventType, build: () => Record<string, unknown>): void {
    const observed = this.events.observed;
    if (!observed && !this.journal.keeps(type)) {
      this.journal.record(type, this.clock.nowMs, undefined); // numbered, not kept: no need to build the data
      return;
    }
    const timeMs = this.clock.nowMs;
    const data = build();
    this.journal.record(type, timeMs, data);
    if (observed) this.events.next({ type, timeMs, data });
  }

  private input(name: string, data: unknown): void {
    this.journal.record(`input.${name}`, this.clock.nowMs, data);
  }

  /**
   * Runs one command: journaled as it came (`input.<type>`), answered with its Outcome, a CommandRefusal turned
   * into its failure. Work the command made due now (a zero-latency arrival, a trigger breach) happens before
   * the next input, so a journal replays exactly.
   */
  dispatch<C extends KernelCommand>(command: C): Outcome<AnswerOf<C>> {
    const { type, ...data } = command;
    this.input(type, data);
    try {
      return this.run(command) as Outcome<AnswerOf<C>>;
    } catch (error) {
      if (error instanceof CommandRefusal) return refusalOutcome(error);
      throw error;
    } finally {
      this.time.advanceTo(this.clock.nowMs);
    }
  }

  private run(command: KernelCommand): Outcome<unknown> {
    if (isAccountCommand(command)) return this.accountCommands.run(command);
    switch (command.type) {
      case 'advance':
        this.time.advance(command.to_ms);
        return success(200, this.read.clock());
      case 'tick':
        return this.tick(command.instrument_id, command.price, command.size);
      case 'register_firm':
        return this.accountCommands.registerFirm(command);
      case 'open_account':
        return this.accountCommands.openAccount(command);
      case 'provision_accounts':
        return this.accountCommands.provision(command.firm_id, command.body);
      case 'replace_account':
        return this.accountCommands.replace(command.account_id);
      case 'place_order':
        return success(202, this.desk.json(this.desk.place(command.body)));
      case 'modify_order':
        return success(202, this.desk.json(this.desk.modify(command.order_id, command.body)));
      case 'cancel_order': {
        const { order, status } = this.desk.cancel(command.order_id);
        return success(status, this.desk.json(order));
      }
      case 'link_oco': {
        const groupId = this.desk.linkOco(command.body);
        return success(201, { oco_group_id: groupId, order_ids: this.desk.oco.orderIds(groupId) });
      }
      case 'add_oco_companion': {
        const groupId = this.desk.addOcoCompanion(command.body);
        return success(200, { oco_group_id: groupId, order_ids: this.desk.oco.orderIds(groupId) });
      }
      case 'record_fill':
        return this.#executions.recordFill(command);
      case 'set_offering':
        this.accountCommands.firmOf(command.firm_id);
        return success(200, this.firm.setOffering(command.firm_id, command.body));
      case 'assign_staff_role':
        return success(
          200,
          this.staffRoles.assign(this.accountCommands.firmOf(command.firm_id), command.body, this.ids),
        );
      case 'remove_staff_role':
        return success(200, this.staffRoles.remove(this.accountCommands.firmOf(command.firm_id), command.body));
      default:
        throw new Error(`command ${(command as { type: string }).type} is not one this kernel knows`);
    }
  }

  /**
   * Moves the clock to `timeMs`, firing venue arrivals, cancels, modifies, expiries and rolls due by then. Not a
   * command: drivers move time silently between inputs, and a journal replay repeats it from the inputs' times.
   */
  advanceTo(timeMs: number): void {
    this.time.advanceTo(timeMs);
  }

  // ---- market ----

  /**
   * Journals the run's market files once, by reference (path, bytes, sha256): from then on each print is counted
   * as the next print of their merged stream instead of written as a line (docs/scenarios.md#the-journal).
   */
  referenceMarketFiles(files: readonly MarketFileReference[]): void {
    if (this.marketByReference) throw new Error('the market files are referenced once, before their first print');
    this.input('market_files', { files });
    this.marketByReference = true;
  }

  /**
   * A trade print from a market file at `timeMs` (canonical symbol, integer ticks; size Infinity for no limit):
   * the market input, outside the command union because it is the hot path. A print stamped before the clock
   * is not applied (the clock does not go back; false). The venue matches first, then accounts holding the
   * instrument are marked (docs/risk-rules.md#order-of-work-at-one-print). Journaled as an input.
   */
  print(symbol: string, priceTicks: number, size: number, timeMs: number = this.clock.nowMs): boolean {
    if (timeMs < this.clock.nowMs) {
      if (this.marketByReference) this.journal.countMarketPrint(this.clock.nowMs);
      return false;
    }
    this.time.advanceTo(timeMs);
    if (this.marketByReference) this.journal.countMarketPrint(timeMs);
    // The line JSON.stringify would write for {instrument, price_ticks, size}, built directly. Canonical symbols
    // are capitals and digits, ticks and sizes whole numbers.
    else if (this.journal.keeps('input.print'))
      this.journal.recordJson(
        'input.print',
        this.clock.nowMs,
        `{"instrument":"${symbol}","price_ticks":${priceTicks},"size":${size === Infinity ? 'null' : size}}`,
      );
    this.#printPath.process(symbol, priceTicks, size);
    return true;
  }

  /** The `tick` command: a print written by a user (scenario `tick`, sandbox market prints) at the current time. */
  private tick(instrumentId: string, price: string, size: number | undefined): Outcome<unknown> {
    const print = parsePrint(instrumentId, price, size);
    this.#printPath.process(print.symbol, print.priceTicks, print.size);
    return success(200, {
      instrument_id: print.symbol,
      price,
      ...(size === undefined ? {} : { size }),
      occurred_at: this.clock.nowMs,
    });
  }

  /** The product family of a canonical symbol, parsed once per symbol. */
  private familyOf(symbol: string): ProductFamily {
    let family = this.families.get(symbol);
    if (!family) {
      family = parseSymbol(symbol).spec.family;
      this.families.set(symbol, family);
    }
    return family;
  }
}

// The parts are kept (a restore writes into each); the calendar and the event streams are wiring.
declareSnapshot(Kernel, {
  kept: [
    'journal',
    'rollFamily',
    'read',
    'clock',
    'ids',
    'fillModel',
    'accounts',
    'positions',
    'desk',
    'risk',
    'timedRules',
    'firm',
    'provisioning',
    'staffRoles',
    'accountCommands',
    'time',
    'families',
    'marketByReference',
  ],
  skipped: ['calendar', 'events', 'events$'],
});

function isAccountCommand(command: KernelCommand): command is Extract<KernelCommand, { type: AccountCommandType }> {
  return (ACCOUNT_COMMANDS as readonly string[]).includes(command.type);
}
