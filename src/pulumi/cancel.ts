/**
 * Stopping traces when the process is told to stop.
 *
 * Under `pulumi up` the program does not get the terminal's Ctrl-C: plugins, the Node.js language
 * host included, run in their own process group (pp: sdk/go/common/resource/plugin/plugin.go,
 * util/cmdutil/child_unix.go). On cancellation the engine stops sending new steps and the
 * language host ends the program (a signal to its process group, SIGKILL 5 s later). Whatever
 * signal does arrive (SIGINT/SIGTERM), traces abort at once, closing every watch, and send their
 * last log lines. Then, only when nothing else in the process handles that signal, it is
 * re-raised, so the process ends exactly as it would have without us. In an Automation API app
 * (the program runs inside the app's process) the app's own handler is left in charge: no
 * signal is re-raised into it.
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
  // Someone else (an Automation API app, a test runner) handles this signal: leave it to them.
  const othersHandle = process.listeners(signal).some((l) => l !== onSignal);
  // Without our handler a second signal while we wait acts at once, as usual.
  uninstall();
  const entries = [...active];
  active.clear();
  for (const entry of entries) entry.controller.abort(new Error(`received ${signal}`));
  if (othersHandle) return;
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
 * An AbortController that aborts on SIGINT/SIGTERM or on `parent` aborting. Call `release()` when
 * the trace is over (passing the promise of its last log writes, which a signal waits for before
 * re-raising it) so the signal handlers go away with the last trace.
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
