// The document GET /openapi.json serves (docs/api.md#the-openapi-document): the generated one with `servers` naming
// the address the sandbox listens on, http://127.0.0.1:8080 by default. Before it listens (inject() in tests, the
// client's type generation) or when it listens on every interface (0.0.0.0, ::), which is no address a client can
// call, the document keeps its relative server `/`: the server the document was read from.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const RELATIVE_SERVER = { url: '/', description: 'the sandbox this document was read from' };

export function servedDocument(app: FastifyInstance): Record<string, unknown> {
  const document = app.swagger() as Record<string, unknown>;
  const server = listeningServer(app.server.address());
  return server ? { ...document, servers: [server] } : document;
}

function listeningServer(address: AddressInfo | string | null): { url: string; description: string } | undefined {
  if (address === null || typeof address === 'string') return undefined;
  if (address.address === '0.0.0.0' || address.address === '::') return undefined;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, description: 'this sandbox, where it listens' };
}
