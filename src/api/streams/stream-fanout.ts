// How live events reach many sockets (docs/api.md#streams). Subscriptions that want the same events (one account's
// channels on /v1/ws, one firm's /v1/firm-ws) share a group, which picks its events once. Events are gathered per
// turn of the event loop (batch-per-turn.ts); then each group's events, framed once each (stream-events.ts), are
// joined once into one buffer that every socket of the group gets in one write. A thousand subscribers of one
// account cost one filter per event and one concatenation per turn, plus one write each, instead of a filter, a
// framing and a write per event and subscriber. A socket with several subscriptions gets their events in one write
// too, in sequence order, as they were published.
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

interface Group {
  readonly wanted: (event: StreamEvent) => boolean;
  readonly members: Set<FanoutMember>;
}

export class StreamFanout {
  private readonly groups = new Map<string, Group>();
  private subscription: Subscription | undefined;

  constructor(private readonly events$: Observable<StreamEvent>) {}

  /**
   * Adds a member to the group of `key`, made with `wanted` when it is the first: every subscription of a key must
   * want the same events. Returns how the member leaves.
   */
  join(key: string, wanted: (event: StreamEvent) => boolean, member: FanoutMember): () => void {
    let group = this.groups.get(key);
    if (!group) {
      group = { wanted, members: new Set() };
      this.groups.set(key, group);
    }
    const joined = group;
    joined.members.add(member);
    this.subscription ??= this.events$.pipe(batchPerTurn(WRITE_GAP_MS)).subscribe((batch) => this.deliver(batch));
    return () => {
      joined.members.delete(member);
      if (joined.members.size === 0 && this.groups.get(key) === joined) this.groups.delete(key);
      if (this.groups.size > 0) return;
      this.subscription?.unsubscribe();
      this.subscription = undefined;
    };
  }

  private deliver(batch: readonly StreamEvent[]): void {
    // What each socket gets: usually one group's events (shared with its other members), else several to merge.
    const bySocket = new Map<FanoutSocket, Array<{ events: StreamEvent[]; whole: () => Buffer }>>();
    for (const group of this.groups.values()) {
      const events = batch.filter(group.wanted);
      if (events.length === 0) continue;
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
    }
    for (const [socket, shares] of bySocket) {
      if (shares.length === 1) socket.write(shares[0]!.whole());
      else socket.write(framesOf(shares.flatMap((share) => share.events).sort((a, b) => a.sequence - b.sequence)));
    }
  }
}

function framesOf(events: readonly StreamEvent[]): Buffer {
  return Buffer.concat(events.map(eventFrame));
}
