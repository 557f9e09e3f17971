// What a short session through a generated client saw (docs/api.md#client-generators): each generator's session
// (hey-api.ts, orval.ts, openapi-typescript-codegen.ts) runs the same steps and answers this, so the test compares
// them with one expectation. summaryOf makes it from the answers of the clients that give each body as `data`.

export interface SessionSetup {
  baseUrl: string;
  /** A firm operator key and the platform admin key of the bundled seed. */
  operatorKey: string;
  adminKey: string;
  /** The trader this session provisions, and the seed's user password. */
  email: string;
  password: string;
}

export interface SessionSummary {
  /** The limit order as POST /v1/orders answered it: SUBMITTED, resting at its price. */
  placed: { status: string; type: string; limit_price: string | undefined };
  /** The modify's answer shows the order before the change lands; a GET after it, the new price. */
  modifyAnswer: string | undefined;
  modifiedPrice: string | undefined;
  /** DELETE answers 202 while the cancel travels; a GET after it, CANCELLED. */
  cancelAnswer: string;
  cancelled: string;
  /** The ErrorCode of a GET of an order that does not exist. */
  notFound: string;
  /** The orders the trader sees with its own session token. */
  traderOrders: number;
  /** The first line of the session export, read as text. */
  exportFirstLine: string;
}

/** What a session's steps answered, each body as `data`: hey-api's and orval's answers alike. */
export interface SessionAnswers {
  placed: { data: { status: string; type: string; limit_price?: string | undefined } };
  modified: { data: { limit_price?: string | undefined } };
  afterModify: { data: { limit_price?: string | undefined } };
  cancel: { data: { status: string } };
  afterCancel: { data: { status: string } };
  own: { data: { items: readonly unknown[] } };
}

/** The summary of a session from its answers, the 404's ErrorCode as the client reads it and the export as text. */
export function summaryOf(answers: SessionAnswers, notFound: string, exported: string): SessionSummary {
  const { placed, modified, afterModify, cancel, afterCancel, own } = answers;
  return {
    placed: { status: placed.data.status, type: placed.data.type, limit_price: placed.data.limit_price },
    modifyAnswer: modified.data.limit_price,
    modifiedPrice: afterModify.data.limit_price,
    cancelAnswer: cancel.data.status,
    cancelled: afterCancel.data.status,
    notFound,
    traderOrders: own.data.items.length,
    exportFirstLine: exported.split('\n')[0]!,
  };
}

export interface GeneratedSession {
  run(setup: SessionSetup): Promise<SessionSummary>;
}

/** The limit order every session places: it rests, since nothing prints. */
export function limitOrder(accountId: string) {
  return {
    account_id: accountId,
    instrument_id: 'ESM6',
    side: 'buy',
    type: 'limit',
    quantity: 1,
    limit_price: '4990.00',
    time_in_force: 'gtc',
  } as const;
}
