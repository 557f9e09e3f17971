// The sandbox seed file (docs/api.md#the-seed-file) as a TypeBox schema: the one declaration of its keys, types and
// ranges, published as schemas/sandbox-seed.json for editors (scripts/file-schemas.ts). seed-file.ts checks a seed
// against it first, then what a schema cannot say: keys and slugs used once, plan files that exist, accounts on the
// firm's plans, a start time it can read.
import { Type } from 'typebox';
import { TIME_EXPECTED } from '../../core/time.js';
import { PlanTemplateFile } from '../../core/accounts/plan-schema.js';
import {
  MAX_ACCOUNTS_PER_REQUEST,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PLAN_REFERENCE_LENGTH,
} from '../../core/accounts/provisioning-request.js';
import { Int, Mapping, OneOf, Text } from '../../core/validation/file-fields.js';
import { FillModelSection } from '../../scenario/scenario-schema.js';

export const SCOPES = ['trading:read', 'trading:write', 'accounts:read', 'accounts:write'] as const;
export const KEY_ROLES = ['operator', 'viewer'] as const;

export const KEY_PREFIX = 'svc_live_';
const MIN_KEY_LENGTH = 17;

const ApiKey = Type.String({
  pattern: `^${KEY_PREFIX}.{${MIN_KEY_LENGTH - KEY_PREFIX.length},}$`,
  expected: `a key starting with "${KEY_PREFIX}" of at least ${MIN_KEY_LENGTH} characters`,
  description: 'An API key, sent as a bearer token; each key appears once in the whole seed.',
});

const Email = Type.String({
  maxLength: MAX_EMAIL_LENGTH,
  pattern: '^[^\\s@]+@[^\\s@]+$',
  expected: `an email address like "trader@example.com" of at most ${MAX_EMAIL_LENGTH} characters`,
});

const PersonName = Text({ maxLength: MAX_NAME_LENGTH });

const PlanOrFile = Type.Union(
  [
    Text({
      expected: 'a plan file name',
      description: 'A plan file: plans/<name>.yaml beside the seed, then the bundled ones.',
    }),
    PlanTemplateFile,
  ],
  { expected: 'a plan file name like "eval-50k-eod" or a plan template mapping' },
);

const Firm = Mapping(
  {
    slug: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
      expected: 'a slug of 1 to 63 lowercase letters, digits and hyphens, not starting with a hyphen',
      description: "The firm's slug, in its URLs; each firm's own.",
    }),
    name: Text({ description: "The firm's name." }),
    api_keys: Type.Array(
      Mapping(
        {
          key: ApiKey,
          scopes: Type.Array(OneOf(SCOPES), {
            minItems: 1,
            uniqueItems: true,
            uniqueExpected: 'a scope not already listed',
            expected: 'a list of scopes',
            description: 'What the key may do (docs/api.md#the-auth-matrix).',
          }),
          role: OneOf(KEY_ROLES, 'operator: every route its scopes allow; viewer: reads only.'),
        },
        { expected: 'a mapping with key, scopes and role' },
      ),
      { minItems: 1, expected: 'a list of keys' },
    ),
    plans: Type.Record(Type.String(), PlanOrFile, {
      minProperties: 1,
      propertyNames: {
        minLength: 1,
        maxLength: MAX_PLAN_REFERENCE_LENGTH,
        expected: `a plan_reference of 1 to ${MAX_PLAN_REFERENCE_LENGTH} characters`,
      },
      expected: 'a mapping of plan_reference to a plan template or a plan file name',
      description: "The firm's plans by plan_reference: a template, or the name of a plan file.",
    }),
    staff: Type.Optional(
      Type.Array(
        Mapping(
          { email: Email, first_name: Type.Optional(PersonName) },
          { expected: 'a mapping with email and optional first_name' },
        ),
        { expected: 'a list of staff members', description: "The firm's staff, who log in to the dashboard." },
      ),
    ),
    accounts: Type.Optional(
      Type.Array(
        Mapping(
          {
            email: Email,
            plan_reference: Text({ expected: 'a plan_reference', description: "A key of the firm's plans." }),
            count: Type.Optional(
              Int({ minimum: 1, maximum: MAX_ACCOUNTS_PER_REQUEST }, 'Accounts to open; default 1.'),
            ),
            first_name: Type.Optional(PersonName),
            last_name: Type.Optional(PersonName),
          },
          { expected: 'a mapping with email and plan_reference' },
        ),
        {
          expected: 'a list of accounts',
          description: 'Accounts provisioned at start, so a trader can log in at once.',
        },
      ),
    ),
  },
  { expected: 'a firm mapping with slug, name, api_keys and plans' },
);

const Bucket = {
  per_second: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: 'Requests per second, a fraction allowed (0.5: one every two).' }),
  ),
  burst: Type.Optional(Int({ minimum: 1 }, 'Requests allowed at once before the rate applies.')),
};

export const SandboxSeedFile = Mapping(
  {
    platform_admin_keys: Type.Array(ApiKey, {
      expected: 'a list of keys',
      description: 'Keys of the platform administrator (firms, resets).',
    }),
    firms: Type.Array(Firm, { minItems: 1, expected: 'a list of firms' }),
    start: Type.Optional(
      Type.Union([Type.String(), Type.Integer()], {
        expected: TIME_EXPECTED,
        description: "Where the simulated clock starts; default the server's (or --start).",
      }),
    ),
    seed: Type.Optional(Int({ minimum: 0 }, 'Seed of the ids and every random draw; default 1.')),
    user_password: Type.Optional(
      Type.String({ minLength: 8, maxLength: 128, description: 'The password of every seeded user.' }),
    ),
    rate_limit: Type.Optional(
      Mapping(
        {
          ...Bucket,
          failed_auth: Type.Optional(
            Mapping(Bucket, {
              expected: 'a mapping with per_second and burst',
              description: 'Failed authentications per client address.',
            }),
          ),
        },
        { expected: 'a mapping with per_second, burst and failed_auth', description: 'docs/api.md#rate-limits' },
      ),
    ),
    risk_load_delay_ms: Type.Optional(
      Int({ minimum: 0 }, "Milliseconds a new account's risk engine takes to load; default 250."),
    ),
    fill_model: Type.Optional(FillModelSection),
  },
  {
    title: 'propsim sandbox seed',
    expected: 'a mapping with platform_admin_keys and firms',
    description: 'The firms `propsim serve` starts with (docs/api.md#the-seed-file).',
  },
);
