// Crashes and restarts (docs/api.md#the-simulation, docs/api.md#persistence): the process dies with requests on
// their way, at once or after living on without its store, and a new process opens the file; or a clean stop and
// start. Either way the journal on disk, the state, the streams and the sessions are checked against what the
// clients were told. Apart from the run loop because these are the durability invariants, not the answers'.
import type { Sent } from './sim-answers.js';
import { digestDifference, kernelDigest } from './sim-digest.js';
import { expectThat } from './sim-failure.js';
import { learnUnanswered } from './sim-learn.js';
import type { RunRequests } from './sim-run-requests.js';
import type { ClientCall, Step } from './sim-steps.js';
import { nextTurn, type SimAnswer } from './sim-system.js';

/** How many turns a crash timed by the stream log waits for an event before it comes anyway. */
const EVENT_WAIT_TURNS = 20;

/**
 * The process dies `afterTurns` turns after the in-flight requests went out, one a turn (each its own commit):
 * at once, or after living on without its store (every answer then 503 store_unavailable). Then a new process
 * opens the file, and the journal on disk, the state, the streams and the sessions are checked against what
 * the clients were told.
 */
export async function crash(run: RunRequests, step: Extract<Step, { do: 'crash' }>): Promise<void> {
  run.crashes++;
  const clean = step.inFlight.length === 0 && !step.storeFailure;
  const before = clean ? kernelDigest(run.sandbox.kernel, run.cast) : undefined;
  const linesBefore = run.system.shadow.current.length;
  const racing = step.inFlight.some((c) => run.races(c));
  const inFlight: Array<Sent & { reply: Promise<SimAnswer> }> = [];
  // The moment the log sends an event out is when a crash tests that what was sent was on disk already.
  let killed: Promise<void> | undefined;
  const kill = () => {
    run.subscribers.rememberSent(run.system);
    killed ??= step.storeFailure ? liveWithoutStore(run, inFlight) : run.system.killStore(true);
    return killed;
  };
  const onEvent = step.afterTurns === 'event' ? run.sandbox.streams.events$.subscribe(() => void kill()) : undefined;
  for (const cc of step.inFlight) {
    if (killed) break; // a dead process takes no more requests
    inFlight.push(run.begin(cc, racing));
    await nextTurn();
  }
  for (let turn = 0; turn < (step.afterTurns === 'event' ? EVENT_WAIT_TURNS : step.afterTurns); turn++) {
    if (killed) break;
    await nextTurn();
  }
  onEvent?.unsubscribe();
  await kill();
  // What came before the process died was seen (a failed store's process judges its own, as they come).
  if (!step.storeFailure) for (const sent of inFlight) if (sent.answer) run.judge(sent, sent.answer);
  for (const sent of inFlight) if (!sent.answer || sent.storeFailed) run.unanswered.push(sent);
  run.subscribers.cutAll();
  await run.system.cutOff();
  await restart(run, inFlight, before, clean ? linesBefore : undefined);
}

/** The writer thread is gone and the process lives on: every answer, pending or new, is 503 store_unavailable. */
async function liveWithoutStore(
  run: RunRequests,
  inFlight: Array<Sent & { reply: Promise<SimAnswer> }>,
): Promise<void> {
  run.model.storeFailed = true;
  await run.system.killStore(false);
  for (const sent of inFlight) if (sent.answer && !sent.storeFailed) run.judge(sent, sent.answer);
  const waiting = inFlight.filter((s) => !s.answer);
  for (const sent of waiting) run.judge(sent, await run.answered(sent));
  const trader = run.plan.clients.findIndex((c) => c.kind === 'trader');
  const probes: ClientCall[] = [
    { client: trader < 0 ? 0 : trader, call: { op: 'login', email: 0 } },
    { client: 0, call: { op: 'read', what: 'orders', ref: 1 }, firm: 0 },
  ];
  for (const cc of probes) {
    const probe = run.begin(cc, false);
    run.judge(probe, await run.answered(probe));
    run.unanswered.push(probe);
  }
}

/** A new process on the file: reconciled with what was acknowledged, then checked. */
async function restart(
  run: RunRequests,
  inFlight: readonly Sent[],
  before: ReturnType<typeof kernelDigest> | undefined,
  linesBefore: number | undefined,
): Promise<void> {
  run.model.storeFailed = false;
  const acknowledged = run.acknowledged;
  const reconciled = await run.system.restart((no) => acknowledged.has(no));
  expectThat(run.warnings.length === 0, 'restart-differs', () => `the restart warned: ${run.warnings.join('; ')}`);
  if (linesBefore !== undefined)
    expectThat(
      reconciled.length === linesBefore,
      'acknowledged-write-lost',
      () => `a crash with nothing on its way kept ${reconciled.length} of the ${linesBefore} lines written`,
    );
  for (const sent of run.unanswered.sort((a, b) => a.no - b.no))
    if (reconciled.kept.has(sent.no)) learnUnanswered(sent, { model: run.model, cast: run.cast, startMs: run.startMs });
  const resetHappened = inFlight.some((s) => s.cc.call.op === 'reset' && reconciled.kept.has(s.no));
  run.unanswered = [];
  run.acknowledged = new Set();
  run.outstanding.clear();
  if (before) {
    const difference = digestDifference(before, kernelDigest(run.sandbox.kernel, run.cast));
    expectThat(difference === undefined, 'restart-differs', () => `the restarted sandbox differs: ${difference}`);
  }
  await run.subscribers.afterRestart(run.system, resetHappened);
  await run.checkState();
}

/** A clean stop and a start on the same file: the same state (docs/api.md#persistence). */
export async function cleanRestart(run: RunRequests): Promise<void> {
  const before = kernelDigest(run.sandbox.kernel, run.cast);
  run.subscribers.close();
  await run.system.close();
  const acknowledged = run.acknowledged;
  await run.system.restart((no) => acknowledged.has(no));
  const difference = digestDifference(before, kernelDigest(run.sandbox.kernel, run.cast));
  expectThat(
    difference === undefined,
    'restart-differs',
    () => `after a clean stop, the restart differs: ${difference}`,
  );
}
