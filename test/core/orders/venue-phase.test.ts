// docs/order-lifecycle.md#the-venue-and-the-order-machine: an order's venue phase moves in_flight → working → done,
// or in_flight → done (refused at arrival, cancelled on the way), and never back; any other move throws.
import { describe, expect, it } from 'vitest';
import { moveVenuePhase, type VenuePhase } from '../../../src/core/orders/venue-phase.js';

const PHASES: VenuePhase[] = ['in_flight', 'working', 'done'];
/** The moves the rule allows, written out by hand: 3 of the 9 (from, to) pairs. */
const ALLOWED = ['in_flight→working', 'in_flight→done', 'working→done'];

describe('venue phase', () => {
  it.each(PHASES.flatMap((from) => PHASES.map((to) => [from, to] as const)))(
    'an order at %s moving to %s: allowed only forward (in_flight → working → done, in_flight → done)',
    (from, to) => {
      const order = { id: 'o-1', phase: from };
      const move = () => moveVenuePhase(order, to);
      if (ALLOWED.includes(`${from}→${to}`)) {
        move();
        expect(order.phase).toBe(to);
      } else {
        expect(move).toThrow(`order o-1: the venue phase cannot move from ${from} to ${to}`);
        expect(order.phase, 'a refused move leaves the phase').toBe(from);
      }
    },
  );
});
