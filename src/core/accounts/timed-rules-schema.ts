// A plan's rules of the clock as written in files (docs/risk-rules.md#flat-by-a-time, #no-holding-over-the-weekend,
// #news-blackouts): risk_profile.flat_by and flat_by_action, hold_over_weekend, and news. Declared once here for plan
// templates and their provisioning overlays (plan-schema.ts); timed-rules.ts reads what a schema cannot say (a news
// file that reached the kernel unread, events in order).
import { Type, type TSchema } from 'typebox';
import { allInstruments } from '../instruments.js';
import { TIME_EXPECTED } from '../time.js';
import { Flag, Int, Mapping, OneOf, Text } from '../validation/file-fields.js';

export const FLAT_BY_ACTIONS = ['flatten', 'fail'] as const;
export type FlatByAction = (typeof FLAT_BY_ACTIONS)[number];
export const NEWS_ACTIONS = ['no_entry', 'flatten', 'fail'] as const;
export type NewsAction = (typeof NEWS_ACTIONS)[number];

/** Minutes a news window may reach before or after its event: a day. */
export const MAX_NEWS_MINUTES = 1440;

export const FlatBy = Type.String({
  pattern: '^(0[0-9]|1[0-5]):[0-5][0-9]$',
  expected: 'an exchange time "HH:MM" from "00:00" to "15:59" (America/Chicago, before the 16:00 close)',
  description:
    'Exchange time (America/Chicago) on each trade date at which open positions are flattened and working orders ' +
    'cancelled, and after which no order is taken until the next session opens (lock flat_by); one minute before ' +
    'an earlier close. Absent: no such time.',
});

export const FlatByAction = OneOf(
  FLAT_BY_ACTIONS,
  'What holding a position at the flat-by time (or at the weekend flat) does: flatten (default: flattened, not a ' +
    'violation) or fail (the evaluation fails, flat_by_violation); fail needs flat_by or hold_over_weekend false.',
);

export const HoldOverWeekend = Flag(
  'false: positions are flattened at the last session before a weekend (at flat_by, else one minute before that ' +
    "session's close) and no order is taken until the next session opens. Default true.",
);

const ROOTS = allInstruments().map((spec) => spec.root);

export const NewsEventTime = Type.Union([Type.String(), Type.Integer()], {
  expected: TIME_EXPECTED,
  description: 'When the news is released: ISO 8601 with an offset or Z (2026-03-11T07:30:00-05:00), or Unix ms.',
});

export const NewsEvent = Mapping(
  {
    time: NewsEventTime,
    roots: Type.Optional(
      Type.Array(OneOf(ROOTS), {
        uniqueItems: true,
        uniqueExpected: 'a root not already listed',
        description: "The roots the event applies to (a mini's micros too); absent or empty: every root.",
      }),
    ),
    name: Type.Optional(Text({ maxLength: 200, description: 'What is released, for messages ("CPI").' })),
  },
  { expected: 'an event: a mapping with time, and optionally roots and name' },
);

export const NewsEvents = Type.Array(NewsEvent, {
  expected: 'a list of events like [{ time: "2026-03-11T07:30:00-05:00", roots: [ES], name: CPI }]',
  description: 'The news events, inline (the API takes them only this way).',
});

const NewsFile = Text({
  maxLength: 1000,
  expected: 'the path of a CSV of news events',
  description:
    'A CSV of news events (columns time, and optionally roots as ES|NQ and name), relative to the folder of the file ' +
    'that names it (scenario, plan file, back-test config, sandbox seed). Not taken over the API.',
});

const NewsMinutes = (when: string) =>
  Int({ minimum: 0, maximum: MAX_NEWS_MINUTES }, `Minutes the blackout starts ${when}; default 2.`);

export const NewsActionText = OneOf(
  NEWS_ACTIONS,
  'What the blackout does in the roots of an event: no_entry (default: orders that open or add to a position are ' +
    'refused, working ones cancelled at the start), flatten (that, and positions flattened at the start) or fail (a ' +
    'fill that opens or adds to a position in the window fails the evaluation, news_violation).',
);

const NEWS_KEYS = {
  before_minutes: Type.Optional(NewsMinutes('before each event')),
  after_minutes: Type.Optional(NewsMinutes('after each event (it ends then)')),
  action: Type.Optional(NewsActionText),
};

export const NewsFileSchema = Mapping(
  { file: Type.Optional(NewsFile), events: Type.Optional(NewsEvents), ...NEWS_KEYS },
  {
    expected: 'a mapping with file or events, and optionally before_minutes, after_minutes, action',
    description:
      'News blackouts (docs/risk-rules.md#news-blackouts): around each event, from before_minutes before it to ' +
      'after_minutes after it, the action applies in the roots the event names.',
  },
);

/** `null` removes the field in an overlay. */
function OrNull<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const FlatByOverlay = OrNull(FlatBy);
export const FlatByActionOverlay = OrNull(FlatByAction);
export const HoldOverWeekendOverlay = OrNull(HoldOverWeekend);

/** news in an overlay: each field replaces the plan's (the events as a whole), null removes the rule. */
export const NewsOverlay = OrNull(
  Mapping(
    { file: Type.Optional(NewsFile), events: Type.Optional(NewsEvents), ...NEWS_KEYS },
    { expected: 'a mapping with some of file, events, before_minutes, after_minutes, action' },
  ),
);
