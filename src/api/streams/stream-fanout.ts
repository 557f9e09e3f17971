// How live events reach many sockets (docs/api.md#streams). Subscriptions that want the same events (one account's
// channels on /v1/ws, one firm's /v1/firm-ws) share a group: the group filters each event once, takes its frame
// (framed once per event, stream-events.ts) and, once per turn of the event loop, writes what the turn brought as
// one buffer to every member. A thousand subscribers of one account cost one filter per event and one concatenation
// per turn, plus one write each, instead of a filter, a framing and a write per event and subscriber.
import { filter, type Observable, type Subscription } from 'rxjs';
import { batchPerTurn } from './batch-per-turn.js';
import { eventFrame, type StreamEvent } from './stream-events.js';

/** One subscription of a socket, as a group sees it. */
export interface FanoutMember {
  /** The last sequence the subscription has had (its backlog, or the stream's when it subscribed): sent after it. */
  readonly after: number;
  write(frames: Buffer): void;
}

/** The shortest time between two writes of a group: what a busy stream adds to an event's delivery, at most. */
export const WRITE_GAP_MS = 5;

export class StreamFanout {
  private readonly groups = new Map<string, FanoutGroup>();

  constructor(private readonly events$: Observable<StreamEvent>) {}

  /**
   * Adds a member to the group of `key`, made with `wanted` when it is the first: every subscription of a key must
   * want the same events. Returns how the member leaves (the last one ends the group).
   */
  join(key: string, wanted: (event: StreamEvent) => boolean, member: FanoutMember): () => void {
    let group = this.groups.get(key);
    if (!group) {
      group = new FanoutGroup(this.events$, wanted);
      this.groups.set(key, group);
    }
    const joined = group;
    joined.members.add(member);
    return () => {
      joined.members.delete(member);
      if (joined.members.size > 0 || this.groups.get(key) !== joined) return;
      joined.end();
      this.groups.delete(key);
    };
  }
}

class FanoutGroup {
  readonly members = new Set<FanoutMember>();
  private readonly subscription: Subscription;

  constructor(events$: Observable<StreamEvent>, wanted: (event: StreamEvent) => boolean) {
    this.subscription = events$
      .pipe(filter(wanted), batchPerTurn(WRITE_GAP_MS))
      .subscribe((batch) => this.deliver(batch));
  }

  end(): void {
    this.subscription.unsubscribe();
  }

  private deliver(batch: readonly StreamEvent[]): void {
    const first = batch[0]!.sequence;
    const last = batch[batch.length - 1]!.sequence;
    let whole: Buffer | undefined;
    for (const member of this.members) {
      // (a member closed as a slow consumer leaves the set during the loop, which a Set allows)
      if (member.after >= last) continue;
      // A member that joined during the turn has had the events up to its `after` some other way.
      if (member.after < first) member.write((whole ??= Buffer.concat(batch.map(eventFrame))));
      else member.write(Buffer.concat(batch.filter((event) => event.sequence > member.after).map(eventFrame)));
    }
  }
}
