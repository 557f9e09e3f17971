// An RxJS operator that gathers what its source emits during a turn of the event loop and emits it as one array
// once the turn's I/O has been handled (setImmediate), and no sooner than `minGapMs` after its previous array: the
// events of every request a turn served go out together, so a socket gets one write per batch rather than one per
// event, and a busy stream writes at most every `minGapMs` (docs/api.md#streams). The gap bounds the writes a
// second, which cost the server (and the loopback's receiver) far more than the bytes: a thousand sockets written
// every turn of a server taking hundreds of requests a second would be hundreds of thousands of writes.
import { Observable, type OperatorFunction } from 'rxjs';

export function batchPerTurn<T>(minGapMs: number): OperatorFunction<T, T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let batch: T[] = [];
      let pending: { cancel(): void } | undefined;
      let lastFlushMs = -Infinity;
      const flush = () => {
        pending = undefined;
        lastFlushMs = performance.now();
        const full = batch;
        batch = [];
        subscriber.next(full);
      };
      const schedule = () => {
        const wait = lastFlushMs + minGapMs - performance.now();
        if (wait <= 0) {
          const immediate = setImmediate(flush);
          return { cancel: () => clearImmediate(immediate) };
        }
        const timeout = setTimeout(flush, wait);
        return { cancel: () => clearTimeout(timeout) };
      };
      const subscription = source.subscribe({
        next(value) {
          batch.push(value);
          pending ??= schedule();
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          if (pending) {
            pending.cancel();
            flush();
          }
          subscriber.complete();
        },
      });
      return () => {
        pending?.cancel();
        subscription.unsubscribe();
      };
    });
}
