// How live events reach many sockets (docs/api.md#streams). Subscriptions that want the same events (one account's
// channels on /v1/ws, one firm's /v1/firm-ws) share a group, which picks its events once. Events are gathered per
// turn of the event loop (batch-per-turn.ts); then each group's events, framed once each (stream-events.ts), are
// joined once into one buffer that every socket of the group gets in one write. A thousand subscribers of one
// account cost one filter per event and one concatenation per turn, plus one write each, instead of a filter, a
// framing and a write per event and subscriber. A socket with several subscriptions gets their events in one write
// too, in sequence order, as they were published. Groups of one account's stream are found by the accounts of a
// turn's events, so a thousand traders each on their own account cost a lookup per event, not a filter per group.
import type { Observable, Subscription } from 'rxjs';
import { batchPerTurn } from './batch-per-turn.js';
import { eventFrame, type StreamEvent } from './stream-events.js';

/** A socket, as the fan-out writes to it. */
export interface FanoutSocket {
  write(frames: Buffer): void;
}

/** One subscription of a socket. */
export interface FanoutMember {
  /** The last sequence the subscription has had (its backlog, or the stream's when it subscribed): sent after it. */
  readonly after: number;
  readonly socket: FanoutSocket;
}

/** The shortest time between two writes: what a busy stream adds to an event's delivery, at most. */
export const WRITE_GAP_MS = 5;

/** Which events a group of subscriptions wants (every subscription of one key wants the same). */
export interface StreamRoute {
  readonly key: string;
  /** The account every event the group wants is of (an account's stream); undefined for a firm's stream. */
  readonly accountId?: string;
  readonly wanted: (event: StreamEvent) => boolean;
}

interface Group {
  readonly route: StreamRoute;
  readonly members: Set<FanoutMember>;
}

export class StreamFanout {
  private readonly groups = new Map<string, Group>();
  /** The groups of each account's streams, and the rest (firms' streams), which look at every event. */
  private readonly groupsByAccount = new Map<string, Set<Group>>();
  private readonly groupsOfEveryAccount = new Set<Group>();
  private subscription: Subscription | undefined;

  constructor(private readonly events$: Observable<StreamEvent>) {}

  /** Adds a member to the group of `route.key` (made with this route when it is the first); returns how it leaves. */
  join(route: StreamRoute, member: FanoutMember): () => void {
    let group = this.groups.get(route.key);
    if (!group) {
      group = { route, members: new Set() };
      this.groups.set(route.key, group);
      this.indexOf(route).add(group);
    }
    const joined = group;
    joined.members.add(member);
    this.subscription ??= this.events$.pipe(batchPerTurn(WRITE_GAP_MS)).subscribe((batch) => this.deliver(batch));
    return () => {
      joined.members.delete(member);
      if (joined.members.size === 0 && this.groups.get(route.key) === joined) this.remove(joined);
      if (this.groups.size > 0) return;
      this.subscription?.unsubscribe();
      this.subscription = undefined;
    };
  }

  private indexOf({ accountId }: StreamRoute): Set<Group> {
    if (accountId === undefined) return this.groupsOfEveryAccount;
    let groups = this.groupsByAccount.get(accountId);
    if (!groups) this.groupsByAccount.set(accountId, (groups = new Set()));
    return groups;
  }

  private remove(group: Group): void {
    this.groups.delete(group.route.key);
    const index = this.indexOf(group.route);
    index.delete(group);
    if (index.size === 0 && group.route.accountId !== undefined) this.groupsByAccount.delete(group.route.accountId);
  }

  private deliver(batch: readonly StreamEvent[]): void {
    // What each socket gets: usually one group's events (shared with its other members), else several to merge.
    const bySocket = new Map<FanoutSocket, Array<{ events: StreamEvent[]; whole: () => Buffer }>>();
    const visit = (group: Group, events: StreamEvent[]) => {
      if (events.length === 0) return;
      let whole: Buffer | undefined;
      const groupWhole = () => (whole ??= framesOf(events));
      for (const member of group.members) {
        // A member that joined during the turn has had the events up to its `after` some other way.
        const mine = member.after < events[0]!.sequence ? events : events.filter((e) => e.sequence > member.after);
        if (mine.length === 0) continue;
        const share = { events: mine, whole: mine === events ? groupWhole : () => framesOf(mine) };
        const shares = bySocket.get(member.socket);
        if (shares) shares.push(share);
        else bySocket.set(member.socket, [share]);
      }
    };
    for (const [accountId, events] of eventsByAccount(batch)) {
      for (const group of this.groupsByAccount.get(accountId) ?? []) visit(group, events.filter(group.route.wanted));
    }
    for (const group of this.groupsOfEveryAccount) visit(group, batch.filter(group.route.wanted));
    for (const [socket, shares] of bySocket) {
      if (shares.length === 1) socket.write(shares[0]!.whole());
      else socket.write(framesOf(shares.flatMap((share) => share.events).sort((a, b) => a.sequence - b.sequence)));
    }
  }
}

/** A batch's events by account, each account's in the batch's order (events of no account are left out). */
function eventsByAccount(batch: readonly StreamEvent[]): Map<string, StreamEvent[]> {
  const byAccount = new Map<string, StreamEvent[]>();
  for (const event of batch) {
    if (event.account_id === undefined) continue;
    const events = byAccount.get(event.account_id);
    if (events) events.push(event);
    else byAccount.set(event.account_id, [event]);
  }
  return byAccount;
}

function framesOf(events: readonly StreamEvent[]): Buffer {
  return Buffer.concat(events.map(eventFrame));
}
