// A start-up cost of yargs that propsim does not need.
import type { Argv } from 'yargs';

/**
 * yargs formats a command's whole help each time it runs the command (usage.cacheHelpMessage, a copy for a handler that
 * fails later), a cost every propsim command would pay. Nothing here reads that copy: each handler reports its
 * own errors, and main.ts's fail hook shows help only for usage errors, found before a handler runs. The method is
 * internal (the Angular CLI turns it off the same way); if a yargs release drops it, this does nothing.
 */
export function skipHelpCopy(y: Argv): void {
  const internal = y as unknown as { getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage?(): void } } };
  const usage = internal.getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}
