/**
 * Ctrl-C handling. `pulumi up` shares the terminal's process group with the program, so the
 * program gets SIGINT too. While traces run we abort them (closing every watch at once, so the
 * trace reports `cancelled` instead of dying mid-request), let them send their last log lines,
 * then re-raise the signal so the process exits exactly as it would have without us.
 */

/** The longest a signal waits for the aborted traces to log their `cancelled` line. */
const RERAISE_BACKSTOP_MS = 1000;

interface Entry {
  controller: AbortController;
  /** Resolves once the trace ended and its last log lines were sent. */
  settled: Promise<void>;
  settle(): void;
}

const active = new Set<Entry>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

function onSignal(signal: NodeJS.Signals): void {
  // Without our handler a second Ctrl-C while we wait kills the process at once, as usual.
  uninstall();
  const entries = [...active];
  active.clear();
  for (const entry of entries) entry.controller.abort(new Error(`received ${signal}`));
  let raised = false;
  const reraise = () => {
    if (raised) return;
    raised = true;
    clearTimeout(backstop);
    process.kill(process.pid, signal);
  };
  // Ref'd on purpose: if the loop emptied first the process would exit 0 instead of by signal.
  const backstop = setTimeout(reraise, RERAISE_BACKSTOP_MS);
  void Promise.all(entries.map((e) => e.settled)).then(() => setImmediate(reraise));
}

function install(): void {
  for (const s of SIGNALS) if (!process.listeners(s).includes(onSignal)) process.on(s, onSignal);
}

function uninstall(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
}

/**
 * An AbortController that aborts on Ctrl-C or on `parent` aborting. Call `release()` when the
 * trace is over (passing the promise of its last log writes, which a Ctrl-C waits for before
 * re-raising the signal) so the signal handlers go away with the last trace.
 */
export function cancellable(parent?: AbortSignal): { signal: AbortSignal; release(flushed?: Promise<unknown>): void } {
  const controller = new AbortController();
  const forward = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  parent?.addEventListener('abort', forward, { once: true });
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const entry: Entry = { controller, settled, settle };
  active.add(entry);
  install();
  return {
    signal: controller.signal,
    release(flushed) {
      parent?.removeEventListener('abort', forward);
      active.delete(entry);
      if (active.size === 0) uninstall();
      void Promise.resolve(flushed).then(settle, settle);
    },
  };
}
