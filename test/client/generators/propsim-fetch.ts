// The fetch function orval's generated client calls (orval's `override.mutator`, docs/api.md#client-generators): the
// sandbox's base URL before each path, and each answer's body read by its content type (JSON, or the session export's
// YAML as text: orval 7's own fetch client would JSON.parse it). The credential is the call's own, one header in its
// RequestInit (`{ headers: { 'X-Service-Api-Key': key } }`); login takes none.

let baseUrl = 'http://127.0.0.1:8080';

/** Where the sandbox listens. */
export function configurePropsim(options: { baseUrl: string }): void {
  baseUrl = options.baseUrl;
}

export async function propsimFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(new URL(path, baseUrl), init);
  const text = [204, 205, 304].includes(response.status) ? '' : await response.text();
  const json = response.headers.get('content-type')?.includes('json') ?? false;
  const data: unknown = json && text !== '' ? JSON.parse(text) : text;
  return { data, status: response.status, headers: response.headers } as T;
}
