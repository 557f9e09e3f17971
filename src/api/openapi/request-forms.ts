// The request bodies whose rules a flat schema cannot say, as the OpenAPI document shows them to client generators
// (docs/api.md#the-openapi-document): "exactly one of" bodies (the clock advance, provisioning's user or user_id) and
// the order types (a limit order requires limit_price, a market order has none) become a `oneOf` of named forms.
//
// The routes validate with the flat TypeBox schemas and then apply these rules in code (parsePlaceOrder, targetOf,
// parseProvisioning), so that a refusal names the field as before (docs/api.md#errors). Each form below is built from
// the flat schema's own field schemas, and test/api/openapi-request-forms.test.ts checks that a body the forms accept
// is one the route accepts, and the other way round.
import { Type, type TObject, type TSchema } from 'typebox';
import { ProvisionAccountsBody } from '../../core/accounts/provisioning-request.js';
import { PlaceOrderBody } from '../../core/orders/order-request.js';
import { AdvanceBody } from '../routes/sandbox-control.js';

/** A union of named forms: the component it documents, its forms and, for the order types, the field that picks. */
export interface RequestForms {
  description: string;
  forms: Record<string, TSchema>;
  discriminator?: { propertyName: string; values: Record<string, string> };
}

const STRICT = { additionalProperties: false } as const;

const order = PlaceOrderBody.properties;
const prices = Type.Required(Type.Pick(PlaceOrderBody, ['limit_price', 'stop_price'])).properties;

function orderForm(type: string, priced: { limit_price?: TSchema; stop_price?: TSchema }, description: string) {
  return Type.Object(
    {
      account_id: order.account_id,
      instrument_id: order.instrument_id,
      side: order.side,
      type: Type.Literal(type),
      quantity: order.quantity,
      ...priced,
      time_in_force: order.time_in_force,
      client_order_id: order.client_order_id,
    },
    { ...STRICT, description },
  );
}

const advanceRequired = Type.Required(AdvanceBody).properties;

/** The body with `keep` required and `drop` left out, its fields in their order. */
function oneOfPair(body: TObject, keep: string, drop: string, description: string) {
  const required = Type.Required(body).properties;
  const properties = Object.entries(body.properties)
    .filter(([name]) => name !== drop)
    .map(([name, schema]) => [name, name === keep ? required[name]! : schema] as const);
  return Type.Object(Object.fromEntries(properties), { ...STRICT, description });
}

export const REQUEST_FORMS: Readonly<Record<string, RequestForms>> = {
  PlaceOrderRequest: {
    description:
      'an order by its type: market (no prices), limit (limit_price), stop (stop_price) or stop_limit (both)',
    forms: {
      MarketOrderRequest: orderForm('market', {}, 'a market order: no limit_price, no stop_price'),
      LimitOrderRequest: orderForm('limit', { limit_price: prices.limit_price }, 'a limit order: limit_price'),
      StopOrderRequest: orderForm('stop', { stop_price: prices.stop_price }, 'a stop order: stop_price'),
      StopLimitOrderRequest: orderForm(
        'stop_limit',
        { limit_price: prices.limit_price, stop_price: prices.stop_price },
        'a stop-limit order: stop_price and limit_price',
      ),
    },
    discriminator: {
      propertyName: 'type',
      values: {
        market: 'MarketOrderRequest',
        limit: 'LimitOrderRequest',
        stop: 'StopOrderRequest',
        stop_limit: 'StopLimitOrderRequest',
      },
    },
  },
  ClockAdvanceRequest: {
    description: 'exactly one of to, by, to_next',
    forms: {
      ClockAdvanceTo: Type.Object({ to: advanceRequired.to }, { ...STRICT, description: 'to a time' }),
      ClockAdvanceBy: Type.Object({ by: advanceRequired.by }, { ...STRICT, description: 'by a duration' }),
      ClockAdvanceToNext: Type.Object(
        { to_next: advanceRequired.to_next },
        { ...STRICT, description: 'to the next session close or session roll (17:00 CT)' },
      ),
    },
  },
  ProvisionAccountsRequest: {
    description: 'exactly one of user (a trader by email, made when new) or user_id (an existing user of the firm)',
    forms: {
      ProvisionForTraderRequest: oneOfPair(ProvisionAccountsBody, 'user', 'user_id', 'accounts for a trader by email'),
      ProvisionForUserRequest: oneOfPair(ProvisionAccountsBody, 'user_id', 'user', 'accounts for an existing user'),
    },
  },
};

/** Every form, by the name of its own component. */
export const FORM_COMPONENTS: Readonly<Record<string, TSchema>> = Object.fromEntries(
  Object.values(REQUEST_FORMS).flatMap((union) => Object.entries(union.forms)),
);

type Json = Record<string, unknown>;

/** Each union's component, once the document is generated: a `oneOf` of its forms' `$ref`s. */
export function documentRequestForms(document: Json): void {
  const schemas = ((document.components ?? {}) as Json).schemas as Record<string, Json>;
  for (const [name, union] of Object.entries(REQUEST_FORMS)) {
    if (!schemas[name]) throw new Error(`the request forms document ${name}, which is not a named schema`);
    const ref = (form: string) => `#/components/schemas/${form}`;
    const discriminator = union.discriminator && {
      propertyName: union.discriminator.propertyName,
      mapping: Object.fromEntries(
        Object.entries(union.discriminator.values).map(([value, form]) => [value, ref(form)]),
      ),
    };
    schemas[name] = {
      description: union.description,
      oneOf: Object.keys(union.forms).map((form) => ({ $ref: ref(form) })),
      ...(discriminator ? { discriminator } : {}),
    };
  }
}
