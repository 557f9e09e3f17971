// Where the venue has an order (docs/order-lifecycle.md#the-venue-and-the-order-machine): travelling to it, resting
// in its book, or done. Not a function of the lifecycle status: an order on its way and one in the book are both
// SUBMITTED, and the venue takes a filled or cancelled order out of its book (done) before the print path sends the
// status change. So the phase is its own small machine, moved only by moveVenuePhase.

export type VenuePhase = 'in_flight' | 'working' | 'done';

/** Each phase with the phases it may move to; done is final. */
export const VENUE_PHASE_MOVES: Readonly<Record<VenuePhase, readonly VenuePhase[]>> = {
  // It arrives and rests in the book; or it is refused at arrival, or cancelled before it got there.
  in_flight: ['working', 'done'],
  // Filled, cancelled (by the client, the risk engine, an OCO sibling's fill, an IOC/FOK settlement) or expired.
  working: ['done'],
  done: [],
};

/** Moves `order` to phase `to`; a move the table does not allow is a bug in the venue and throws at once. */
export function moveVenuePhase(order: { readonly id: string; phase: VenuePhase }, to: VenuePhase): void {
  if (!VENUE_PHASE_MOVES[order.phase].includes(to))
    throw new Error(`order ${order.id}: the venue phase cannot move from ${order.phase} to ${to}`);
  order.phase = to;
}
