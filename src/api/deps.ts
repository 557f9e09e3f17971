// What the HTTP app is built from (docs/architecture.md#the-http-app): `buildApp(deps)` takes these, so tests and
// `propsim serve` build the same app around their own sandbox.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Sandbox } from './sandbox/sandbox.js';

export interface ApiDeps {
  /** The sandbox: the kernel (replaced on reset, so read `deps.sandbox.kernel` per request), clock, seed, faults. */
  readonly sandbox: Sandbox;
}

/** The Fastify instance every route group registers on: TypeBox schemas type the handlers. */
export type ApiApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
