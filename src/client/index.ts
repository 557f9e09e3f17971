// propsim/client: a typed client of the sandbox's REST API (docs/api.md#the-client). The paths and their shapes are
// generated from /openapi.json (api-types.ts); requests go through openapi-fetch, with the interface's retry rules.
//
//   const api = createPropsimClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'svc_live_acme_operator_demo' });
//   const { data, error } = await api.GET('/v1/orders/{order_id}', { params: { path: { order_id } } });
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api-types.js';
import { retryPolicy, type RetryOptions } from './retry-policy.js';
import { retryingFetch } from './retrying-fetch.js';

export type { components, operations, paths } from './api-types.js';
export { backoffMs, mayRetry, retryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js';

export interface PropsimClientOptions {
  /** Where `propsim serve` listens, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** A firm or admin service key, sent as X-Service-Api-Key. */
  apiKey?: string;
  /** A trader's session token (POST /v1/auth/login), sent as Authorization: Bearer. */
  token?: string;
  /** Other headers on every request. */
  headers?: Record<string, string>;
  /** The retry rules' knobs; `false` sends each request once. */
  retry?: RetryOptions | false;
  /** The transport under the retries (default: global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export type PropsimClient = Client<paths>;

export function createPropsimClient(options: PropsimClientOptions): PropsimClient {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers['X-Service-Api-Key'] = options.apiKey;
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    fetch: options.retry === false ? send : retryingFetch(retryPolicy(options.retry), send),
  });
}
