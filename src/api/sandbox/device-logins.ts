// Shared devices (docs/api.md#shared-devices): each login's X-Device-Fingerprint and client IP, kept for 24 hours of
// simulated time; when two users of one firm log in from the same fingerprint or the same IP within that window,
// the firm stream is told (devices.flagged, and fingerprints.flagged or ip_logs.flagged for what they shared).
import { declareSnapshot } from '../../core/kernel/snapshot-fields.js';

export const SHARED_DEVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

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

export class DeviceLogins {
  private logins: Login[] = [];

  clear(): void {
    this.logins = [];
  }

  /** Records a login; the flags it raises against the firm's other users' logins of the last 24 hours. */
  record(login: Login): DeviceFlag[] {
    this.logins = this.logins.filter((l) => login.atMs - l.atMs < SHARED_DEVICE_WINDOW_MS);
    const others = this.logins.filter((l) => l.firmId === login.firmId && l.userId !== login.userId);
    this.logins.push(login);
    const byFingerprint =
      login.fingerprint === undefined ? [] : usersOf(others.filter((l) => l.fingerprint === login.fingerprint));
    const byIp = usersOf(others.filter((l) => l.ip === login.ip));
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
          shared_with: usersOf(others.filter((l) => byFingerprint.includes(l.userId) || byIp.includes(l.userId))),
          ...(byFingerprint.length > 0 ? { fingerprint: login.fingerprint } : {}),
          ...(byIp.length > 0 ? { ip: login.ip } : {}),
        },
      });
    return flags;
  }
}

declareSnapshot(DeviceLogins, {
  kept: ['logins'],
  skipped: [],
});

/** The distinct users of some logins, in the order they first logged in. */
function usersOf(logins: readonly Login[]): string[] {
  return [...new Set(logins.map((l) => l.userId))];
}
