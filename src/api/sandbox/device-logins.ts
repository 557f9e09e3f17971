// Shared devices (docs/api.md#shared-devices): each login's X-Device-Fingerprint and client IP, kept for 24 hours of
// simulated time; when two users of one firm log in from the same fingerprint or the same IP within that window,
// the firm stream is told (devices.flagged, and fingerprints.flagged or ip_logs.flagged for what they shared).
// A login costs what the users of its fingerprint and IP cost, and the memory holds one entry per firm, user and
// fingerprint or IP (docs/api.md#memory-stays-bounded), not one per login: a clock standing still never lets a
// login's window close, and scanning every login of the day at each login would grow with their square.
import { declareSnapshot } from '../../core/snapshot/snapshot-fields.js';

export const SHARED_DEVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** At most this many (firm, user, fingerprint or IP) entries are held; the oldest go first. */
export const MAX_DEVICE_ENTRIES = 100_000;

export interface Login {
  readonly userId: string;
  readonly firmId: string;
  readonly fingerprint: string | undefined;
  readonly ip: string;
  readonly atMs: number;
}

/** What a login gave away, as the firm stream's event types and data. */
export interface DeviceFlag {
  readonly type: 'devices.flagged' | 'fingerprints.flagged' | 'ip_logs.flagged';
  readonly data: Record<string, unknown>;
}

/** One user's latest login on one fingerprint or IP of a firm. */
interface Entry {
  /** The firm, what is shared (`fingerprint` or `ip`) and its value: the key of `byDevice`. */
  readonly device: string;
  readonly userId: string;
  atMs: number;
}

export class DeviceLogins {
  /**
   * The users of each firm's fingerprint or IP, by user, in the order they came since they were last away for a
   * day: what a login is compared with.
   */
  private byDevice = new Map<string, Map<string, Entry>>();
  /** Every entry by device and user, oldest login first (a login moves its entry to the end): what expires first. */
  private entries = new Map<string, Entry>();

  clear(): void {
    this.byDevice = new Map();
    this.entries = new Map();
  }

  /** How many (firm, user, fingerprint or IP) entries are held. */
  get size(): number {
    return this.entries.size;
  }

  /** Records a login; the flags it raises against the firm's other users' logins of the last 24 hours. */
  record(login: Login): DeviceFlag[] {
    this.expire(login.atMs);
    const byFingerprint =
      login.fingerprint === undefined ? [] : this.others(deviceKey(login, 'fingerprint', login.fingerprint), login);
    const byIp = this.others(deviceKey(login, 'ip', login.ip), login);
    if (login.fingerprint !== undefined) this.remember(deviceKey(login, 'fingerprint', login.fingerprint), login);
    this.remember(deviceKey(login, 'ip', login.ip), login);
    const flags: DeviceFlag[] = [];
    if (byFingerprint.length > 0)
      flags.push({
        type: 'fingerprints.flagged',
        data: { firm_id: login.firmId, fingerprint: login.fingerprint, user_ids: [login.userId, ...byFingerprint] },
      });
    if (byIp.length > 0)
      flags.push({
        type: 'ip_logs.flagged',
        data: { firm_id: login.firmId, ip: login.ip, user_ids: [login.userId, ...byIp] },
      });
    if (flags.length > 0)
      flags.unshift({
        type: 'devices.flagged',
        data: {
          firm_id: login.firmId,
          user_id: login.userId,
          shared_with: [...new Set([...byFingerprint, ...byIp])],
          ...(byFingerprint.length > 0 ? { fingerprint: login.fingerprint } : {}),
          ...(byIp.length > 0 ? { ip: login.ip } : {}),
        },
      });
    return flags;
  }

  /** The other users of a device, in the order they came. */
  private others(device: string, login: Login): string[] {
    const users = this.byDevice.get(device);
    return users ? [...users.keys()].filter((userId) => userId !== login.userId) : [];
  }

  private remember(device: string, login: Login): void {
    const id = `${device}\u0000${login.userId}`;
    const held = this.entries.get(id);
    if (held) {
      held.atMs = login.atMs;
      this.entries.delete(id); // to the end: the latest login
      this.entries.set(id, held);
      return;
    }
    const entry: Entry = { device, userId: login.userId, atMs: login.atMs };
    this.entries.set(id, entry);
    let users = this.byDevice.get(device);
    if (!users) this.byDevice.set(device, (users = new Map()));
    users.set(login.userId, entry);
    if (this.entries.size > MAX_DEVICE_ENTRIES) this.drop(this.entries.keys().next().value!);
  }

  /** Drops the entries whose latest login is a day old by `nowMs`: they are the first ones. */
  private expire(nowMs: number): void {
    for (const [id, entry] of this.entries) {
      if (nowMs - entry.atMs < SHARED_DEVICE_WINDOW_MS) return;
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const entry = this.entries.get(id)!;
    this.entries.delete(id);
    const users = this.byDevice.get(entry.device)!;
    users.delete(entry.userId);
    if (users.size === 0) this.byDevice.delete(entry.device);
  }
}

declareSnapshot(DeviceLogins, {
  kept: ['byDevice', 'entries'],
  skipped: [],
});

/** A firm's fingerprint or IP as a key. */
function deviceKey(login: Login, kind: 'fingerprint' | 'ip', value: string): string {
  return `${login.firmId}\u0000${kind}\u0000${value}`;
}
