// npx, `npm exec` and `npm start` run a bin through `sh -c`: a SIGTERM to npm ends npm and that shell, but never
// reaches the node process under them, which lives on re-parented (docs/api.md#under-a-supervisor). A long-running
// command started by npm therefore watches its parent and, when it goes, stops as it does on SIGTERM.

/** True when npm started this process (it sets npm_command for exec, start and run alike). */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Calls `onExit` once when this process's parent exits (it is re-parented: its ppid changes). Nothing is watched
 * when npm did not start it: `nohup propsim serve &` from a shell that then exits is meant to keep running.
 * Returns a function that ends the watch. The timer never keeps the process alive.
 */
export function watchNpmParent(
  onExit: () => void,
  options: { env?: NodeJS.ProcessEnv; parentPid?: () => number; intervalMs?: number } = {},
): () => void {
  const parentPid = options.parentPid ?? (() => process.ppid);
  const first = parentPid();
  // Already orphaned (ppid 1, or a subreaper's): the npm that started it is gone, and there is nothing to follow.
  if (!startedByNpm(options.env) || first === 1) return () => {};
  const timer = setInterval(() => {
    if (parentPid() === first) return;
    clearInterval(timer);
    onExit();
  }, options.intervalMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}
