// A signal's handler runs only when the event loop next polls, so a command that does long work without waiting (a
// run with no market file, a report drawn in this thread) polls once before it writes: a Ctrl-C sent meanwhile is
// then handled while nothing is written yet.

/**
 * Settles after the event loop has polled at least once (two turns: from inside an I/O callback, the next check phase
 * comes before the next poll), which handles a signal that came while the thread was busy.
 */
export function afterPendingSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
