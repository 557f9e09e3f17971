// The state every part of the kernel shares: one clock, one id source, one event stream.
import type { GlobexCalendar } from '../calendar/globex-calendar.js';
import type { SimClock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { ProductFamily } from '../instruments.js';
import type { FillModel } from '../orders/fill-model.js';
import type { KernelEventType, KernelTimer } from './events.js';

export interface KernelContext {
  readonly clock: SimClock<KernelTimer>;
  readonly ids: IdGenerator;
  readonly calendar: GlobexCalendar;
  readonly fillModel: FillModel;
  /** The product group whose sessions every account rolls on (docs/risk-rules.md#session-rolls). */
  readonly rollFamily: ProductFamily;
  /**
   * Publishes an event to listeners and the journal, stamped with the clock's time. The payload is built
   * only when someone will read it (benchmarks run without journal or listeners).
   */
  emit(type: KernelEventType, data: () => Record<string, unknown>): void;
}
