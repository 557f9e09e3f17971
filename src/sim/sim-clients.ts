// The simulation's virtual clients (docs/api.md#the-simulation) and the credentials they use, read from the
// sandbox's seed: each firm's operator and viewer keys, the platform admin key, traders who log in with the seed's
// user_password, and a rogue that holds one firm's key and aims at the other firm's ids, or sends garbage.
import type { SandboxSeed } from '../api/sandbox/seed-file.js';
import type { SimRandom } from './sim-random.js';

export type ClientKind = 'operator' | 'viewer' | 'admin' | 'trader' | 'rogue';

/** A client: its kind and, but for the admin, the index of its firm in the seed. */
export interface ClientSpec {
  kind: ClientKind;
  firm: number;
}

/** What the simulation needs of a seed firm. */
export interface SimFirm {
  slug: string;
  operatorKey: string;
  viewerKey: string;
  plans: readonly string[];
  /** Emails a trader of the firm logs in with: the seed's users first, then ones provisioning makes. */
  emails: readonly string[];
}

export interface SimCast {
  firms: readonly SimFirm[];
  adminKey: string;
  password: string;
}

/** Emails of users that provisioning makes, per firm (a login before provisioning is a refused login). */
const PROVISIONED_EMAILS = 6;

export function castOf(seed: SandboxSeed): SimCast {
  const firms = seed.firms.map((firm): SimFirm => {
    const keyOf = (role: 'operator' | 'viewer') => {
      const found = firm.apiKeys.find((k) => k.role === role && k.scopes.includes('accounts:read'));
      if (!found) throw new Error(`the simulation needs an ${role} key of ${firm.slug} in the seed`);
      return found.key;
    };
    const domain = `${firm.slug}.sim.example`;
    return {
      slug: firm.slug,
      operatorKey: keyOf('operator'),
      viewerKey: keyOf('viewer'),
      plans: [...firm.plans.keys()],
      emails: [
        ...firm.accounts.map((a) => a.email),
        ...firm.staff.map((s) => s.email),
        ...Array.from({ length: PROVISIONED_EMAILS }, (_, i) => `trader${i}@${domain}`),
      ],
    };
  });
  if (firms.length < 2) throw new Error('the simulation needs a seed with two firms (a rogue aims at the other)');
  return { firms, adminKey: seed.platformAdminKeys[0]!, password: seed.userPassword };
}

/** The kinds every run of enough clients has, in this order; more clients are drawn at random. */
const EVERY_KIND: readonly ClientSpec[] = [
  { kind: 'admin', firm: 0 },
  { kind: 'operator', firm: 0 },
  { kind: 'trader', firm: 0 },
  { kind: 'operator', firm: 1 },
  { kind: 'trader', firm: 1 },
  { kind: 'viewer', firm: 0 },
  { kind: 'rogue', firm: 1 },
  { kind: 'viewer', firm: 1 },
];

/** `count` clients: the admin first (sandbox control needs one), then every kind, then random ones. */
export function clientsFor(random: SimRandom, count: number, firmCount: number): ClientSpec[] {
  const clients = EVERY_KIND.slice(0, Math.max(1, count)).map((c) => ({ ...c, firm: c.firm % firmCount }));
  const kinds: ClientKind[] = ['operator', 'viewer', 'trader', 'trader', 'rogue', 'admin'];
  while (clients.length < count) clients.push({ kind: random.pick(kinds), firm: random.int(0, firmCount - 1) });
  return clients;
}
