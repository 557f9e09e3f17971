// The steps that pit requests against each other (docs/api.md#the-simulation): requests sent at once (a retry
// racing its original, a reset racing a clock move, one session token used twice), a placement whose body comes
// after its session ended (docs/api.md#what-a-reset-ends), and a trader borrowing another client's Idempotency-Key
// (docs/api.md#idempotency). Apart from the single requests because each builds its step out of several of them.
import type { ClientCalls } from './sim-generate-clients.js';
import type { ClientCall, Step } from './sim-steps.js';

/** Requests sent at once: a retry racing its original, a reset racing a clock move, or any mix. */
export function together(from: ClientCalls): ClientCall[] {
  const r = from.random;
  const clients = from.clients.length;
  return r.weighted<() => ClientCall[]>([
    [
      3,
      () => {
        const first = from.clientCall(r.int(0, clients - 1));
        const retried: ClientCall = first.call.op === 'place' ? first : { ...first, call: from.calls.place(1) };
        return [retried, retried, ...(r.chance(0.3) ? [retried] : [])];
      },
    ],
    [
      1,
      () => [
        { client: from.admin, call: from.calls.control('advance') },
        { client: from.admin, call: { op: 'reset' } },
      ],
    ],
    [6, () => Array.from({ length: r.int(2, 5) }, () => from.clientCall(r.int(0, clients - 1)))],
    [1, () => sessionTwice(from)],
  ])();
}

/** A trader's newest token refreshed twice at once, or refreshed and logged out at once. */
function sessionTwice(from: ClientCalls): ClientCall[] {
  const r = from.random;
  const traders = from.traders();
  if (traders.length === 0) return [from.clientCall(0)];
  const client = r.pick(traders);
  const refresh: ClientCall = { client, call: { op: 'refresh' }, token: 0 };
  return [refresh, r.chance(0.5) ? refresh : { ...refresh, call: { op: 'logout' } }];
}

/**
 * A trader's placement whose body comes after a reset, a logout of its token, a clock move past its session's
 * hour, or (to compare) a read of the clock: docs/api.md#what-a-reset-ends.
 */
export function slow(from: ClientCalls): Step {
  const r = from.random;
  const traders = from.traders();
  if (traders.length === 0) return { do: 'call', ...from.clientCall(r.int(0, from.clients.length - 1)) };
  const client = r.pick(traders);
  const first: ClientCall = { client, call: { op: 'login', email: r.int(0, 2) } };
  const placing: ClientCall = { client, call: from.calls.place(), token: 0 };
  const meanwhile = r.weighted<() => ClientCall>([
    [4, () => ({ client: from.admin, call: { op: 'reset' } })],
    [3, () => ({ client, call: { op: 'logout' }, token: 0 })],
    [2, () => ({ client: from.admin, call: { op: 'advance', by: '2h' } })],
    [1, () => ({ client: from.admin, call: { op: 'clock' } })],
  ])();
  return { do: 'slow', first, ...placing, meanwhile };
}

/**
 * A trader logs in and sends the Idempotency-Key and body of another client of its firm (an operator's, another
 * trader's): unless the account is its own, it must get a 404, never the other's order (docs/api.md#idempotency).
 */
export function borrow(from: ClientCalls): Step {
  const r = from.random;
  const { keyed, keyClients } = from.calls;
  const traders = from.traders();
  const client = traders.length > 0 ? r.pick(traders) : undefined;
  const firm = client === undefined ? undefined : from.clients[client]!.firm;
  const lent = keyed.filter((call) => {
    const lender = keyClients.get(call.key!);
    const spec = lender === undefined ? undefined : from.clients[lender];
    return lender !== client && spec !== undefined && spec.kind !== 'rogue' && spec.firm === firm;
  });
  if (client === undefined || lent.length === 0)
    return { do: 'call', ...from.clientCall(r.int(0, from.clients.length - 1)) };
  const call = r.pick(lent.slice(-8));
  return {
    do: 'call',
    first: { client, call: { op: 'login', email: r.int(0, 2) } },
    client,
    call: { ...call, borrow: keyClients.get(call.key!)! },
    token: 0,
  };
}
