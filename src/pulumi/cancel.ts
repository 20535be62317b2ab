/**
 * Ctrl-C handling. `pulumi up` shares the terminal's process group with the program, so the
 * program gets SIGINT too. While traces run we abort them (closing every watch at once, so the
 * trace reports `cancelled` instead of dying mid-request), then re-raise the signal so the
 * process exits exactly as it would have without us.
 */
const active = new Set<AbortController>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

function onSignal(signal: NodeJS.Signals): void {
  for (const controller of active) controller.abort(new Error(`received ${signal}`));
  active.clear();
  uninstall();
  process.kill(process.pid, signal);
}

function install(): void {
  for (const s of SIGNALS) if (!process.listeners(s).includes(onSignal)) process.on(s, onSignal);
}

function uninstall(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
}

/**
 * An AbortController that aborts on Ctrl-C, on `parent` aborting, or on `release()`-less exit;
 * call `release()` when the trace is over so the signal handlers go away with the last trace.
 */
export function cancellable(parent?: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const forward = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  parent?.addEventListener('abort', forward, { once: true });
  active.add(controller);
  install();
  return {
    signal: controller.signal,
    release() {
      parent?.removeEventListener('abort', forward);
      active.delete(controller);
      if (active.size === 0) uninstall();
    },
  };
}
