// What the generated types refuse at compile time (docs/api.md#client-generators): a limit order without its
// limit_price, a market order with one, and an error code the API never sends. Each line below must be a type error
// in every generated client; tsc reports an unused @ts-expect-error when one is not.
import type { ErrorCode as CodegenCode, PlaceOrderRequest as CodegenOrder } from './codegen';
import type { ErrorCode as HeyCode, PlaceOrderRequest as HeyOrder } from './hey-api/types.gen';
import type { ErrorCode as OrvalCode, PlaceOrderRequest as OrvalOrder } from './orval/propsim';

const order = { account_id: 'a', instrument_id: 'ESM6', side: 'buy', quantity: 1 } as const;

// @ts-expect-error a limit order needs its limit_price
export const heyLimit: HeyOrder = { ...order, type: 'limit' };
// @ts-expect-error a market order has no limit_price
export const heyMarket: HeyOrder = { ...order, type: 'market', limit_price: '5000.00' };
// @ts-expect-error not a code the API sends
export const heyCode: HeyCode = 'no_such_code';

// @ts-expect-error a limit order needs its limit_price
export const orvalLimit: OrvalOrder = { ...order, type: 'limit' };
// @ts-expect-error a market order has no limit_price
export const orvalMarket: OrvalOrder = { ...order, type: 'market', limit_price: '5000.00' };
// @ts-expect-error not a code the API sends
export const orvalCode: OrvalCode = 'no_such_code';

// @ts-expect-error a limit order needs its limit_price
export const codegenLimit: CodegenOrder = { ...order, type: 'limit' };
// @ts-expect-error a market order has no limit_price
export const codegenMarket: CodegenOrder = { ...order, type: 'market', limit_price: '5000.00' };
// @ts-expect-error not a code the API sends
export const codegenCode: CodegenCode = 'no_such_code';
