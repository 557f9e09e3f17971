// docs/api.md#under-a-supervisor: a server started by npm stops when npm goes (a SIGTERM to npm never reaches it).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startedByNpm, watchNpmParent } from '../../src/cli/npm-parent-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('npm-parent-watch', () => {
  it('startedByNpm: npm_command (npx, npm exec, npm start) or npm_lifecycle_event (npm run) set', () => {
    expect(startedByNpm({ npm_command: 'exec' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'start' })).toBe(true);
    expect(startedByNpm({ PATH: '/usr/bin' })).toBe(false);
  });

  it('calls back once when the parent pid changes (re-parented), and not before', () => {
    vi.useFakeTimers();
    let parent = 4242;
    const onExit = vi.fn();
    watchNpmParent(onExit, { env: { npm_command: 'exec' }, parentPid: () => parent, intervalMs: 100 });
    vi.advanceTimersByTime(1000);
    expect(onExit).not.toHaveBeenCalled();
    parent = 1; // npm and its shell are gone: init (or a subreaper) adopted the process
    vi.advanceTimersByTime(100);
    expect(onExit).toHaveBeenCalledTimes(1);
    parent = 7;
    vi.advanceTimersByTime(1000);
    expect(onExit).toHaveBeenCalledTimes(1);
  });

  it('watches nothing when npm did not start it, or when it is already orphaned', () => {
    vi.useFakeTimers();
    const onExit = vi.fn();
    let parent = 4242;
    watchNpmParent(onExit, { env: {}, parentPid: () => parent, intervalMs: 100 });
    let orphan = 1;
    watchNpmParent(onExit, { env: { npm_command: 'exec' }, parentPid: () => orphan, intervalMs: 100 });
    parent = 1;
    orphan = 99;
    vi.advanceTimersByTime(1000);
    expect(onExit).not.toHaveBeenCalled();
  });
});
