// An order's statuses (docs/order-lifecycle.md#statuses-and-transitions): the machine's states (order.machine.ts) and the status
// records' (status-log.ts), declared here so that neither imports the other for them.
export type OrderStatus = 'SUBMITTED' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED' | 'REJECTED' | 'EXPIRED';
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
