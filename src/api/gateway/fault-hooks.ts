// Fault windows at the gateway (docs/api.md#fault-windows): a `gateway` window answers before credentials are
// read, as a failing gateway would; a downstream window (trading, balances, risk, accounts) answers after the
// request was admitted and validated, as the service behind the gateway would.
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { FaultStatus, FaultWindow } from '../sandbox/fault-windows.js';

const FAULTS: Record<FaultStatus, { code: string; message: string }> = {
  421: { code: 'wrong_shard', message: 'the request reached the wrong shard (sandbox fault window)' },
  429: { code: 'rate_limited', message: 'too many requests (sandbox fault window)' },
  502: { code: 'bad_gateway', message: 'the upstream service did not answer (sandbox fault window)' },
  503: { code: 'service_unavailable', message: 'the service is unavailable (sandbox fault window)' },
};

export function gatewayFault(request: FastifyRequest, sandbox: Sandbox): void {
  const policy = request.routeOptions.config.policy;
  if (!policy || policy.adminOnly || policy.noFaults) return;
  const window = sandbox.faults.match(['gateway'], pathOf(request), sandbox.kernel.nowMs);
  if (window) throw faultError(window, sandbox.kernel.nowMs);
}

export function downstreamFault(request: FastifyRequest, sandbox: Sandbox): void {
  const target = request.routeOptions.config.policy?.faultTarget;
  if (!target) return;
  const window = sandbox.faults.match([target], pathOf(request), sandbox.kernel.nowMs);
  if (window) throw faultError(window, sandbox.kernel.nowMs);
}

/** Retry-After: the window's remaining simulated seconds, at least 1. */
function faultError(window: FaultWindow, nowMs: number): ApiError {
  const { code, message } = FAULTS[window.status];
  const seconds = String(Math.max(1, Math.ceil((window.untilMs - nowMs) / 1000)));
  const retry = window.status === 429 || window.status === 503 ? { 'retry-after': seconds } : {};
  return new ApiError(window.status, code, message, undefined, retry);
}

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q < 0 ? request.url : request.url.slice(0, q);
}
