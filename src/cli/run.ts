/**
 * `rollout-trace` as a function: parses argv, traces, renders, and returns the exit code. It
 * never throws and never prints a stack trace (unless ROLLOUT_TRACE_DEBUG is set).
 */
import type { RolloutEvent, Verdict } from '../core/index.js';
import { kindRefusal, resolvePolicy, workloadOf } from '../core/index.js';
import { isRolloutTraceError, type RolloutTraceError } from '../errors.js';
import { setLongTimeout } from '../long-timer.js';
import { recordingsFlushed } from '../record/index.js';
import type { Sink } from '../report/index.js';
import { packageVersion } from '../version.js';
import { type CliOptions, parseCli } from './args.js';
import { type BatchedStream, batchedStream } from './batched-stream.js';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
import { helpText } from './help.js';
import { type CliIo, processIo } from './io.js';
import { openSink } from './sink.js';
import { UsageError } from './usage-error.js';

/** Runs the CLI and resolves with its exit code. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<ExitCode> {
  if (argv[0] === 'replay') return replay(argv.slice(1), io);
  let options: CliOptions;
  try {
    const parsed = parseCli(argv);
    if (parsed.kind === 'help') {
      io.stdout.write(helpText());
      return EXIT.success;
    }
    if (parsed.kind === 'version') {
      io.stdout.write(`rollout-trace ${packageVersion()}\n`);
      return EXIT.success;
    }
    options = parsed.options;
    resolvePolicy(options.policy); // validate before touching the cluster
  } catch (err) {
    return reportError(err, io);
  }
  try {
    return await trace(options, io);
  } catch (err) {
    return reportError(err, io);
  }
}

/** `rollout-trace replay FILE ...`: no cluster; loaded on use. */
async function replay(argv: string[], io: CliIo): Promise<ExitCode> {
  try {
    const { parseReplayArgs } = await import('./replay-args.js');
    const options = parseReplayArgs(argv);
    if (options === 'help') {
      io.stdout.write(helpText());
      return EXIT.success;
    }
    resolvePolicy(options.policy);
    const { replayCommand } = await import('./replay.js');
    return await replayCommand(options, io);
  } catch (err) {
    return reportError(err, io);
  }
}

async function trace(asked: CliOptions, io: CliIo): Promise<ExitCode> {
  // Loaded lazily so --help and usage errors answer instantly, without client-node's start-up.
  const { trackRolloutsReplaying, resolveTrackOptions } = await import('../track/index.js');
  const options = asked.selector !== undefined ? await selected(asked, io, resolveTrackOptions) : asked;
  const common = sharedTrackOptions(options);
  const { kc, namespace } = validatedTargets(options, common, resolveTrackOptions);
  const outputs = (await import('./run-outputs.js')).runOutputs(options, io.env);
  let batched: BatchedStream | undefined;
  const { sink, tty } = await openSink({
    output: options.output,
    stream: io.stdout,
    batched: (stream) => (batched = batchedStream(stream)),
    env: io.env,
    pulumiMessages: options.pulumiMessages,
  });
  // --watch: the trackers watch on after their verdicts, until stop(); `watchEnded` says when
  // every watch ended (with the first watch error, e.g. forbidden).
  let endWatch!: (error?: unknown) => void;
  const watchEnded = new Promise<unknown>((resolve) => (endWatch = resolve));
  // The sink is the stream's only consumer: no history is kept (it would grow with the trace).
  const tracking = trackRolloutsReplaying(
    options.targets.map(({ kind, name }) => ({ ...common, kind, name, namespace, kubeconfig: kc })),
    'until-first-listener',
    options.watch ? { onEnd: endWatch } : undefined,
  );
  const seenVerdicts = new Set<string>();
  const write = (e: RolloutEvent) => {
    sink.write(e);
    outputs.add(e);
    if (e.type !== 'verdict') return;
    seenVerdicts.add(verdictKey(e.verdict));
    batched?.flushNow(); // a verdict is printed at once, not with the next batch
  };
  const unsubscribe = tracking.subscribe(write);

  const interrupts: Interrupts = { count: 0 };
  const removeInterrupt = onInterrupts(io, interrupts, tracking, () => batched?.flushNow());

  try {
    let verdicts: Verdict[];
    try {
      verdicts = await tracking.verdicts;
      writeUnseenVerdicts(verdicts, seenVerdicts, write);
      if (options.watch && interrupts.count === 0)
        await watchAfterVerdict(options, tty, io, watchEnded, (wake) => (interrupts.wake = wake));
    } finally {
      tracking.stop(); // ends the watch (nothing else is still running)
      unsubscribe();
    }
    await closeWithin(sink);
    await recordingsFlushed();
    outputs.finish(verdicts, `rollout-trace ${options.targets.map((t) => `${t.kind}/${t.name}`).join(' ')} -n ${namespace}`, io);
    return exitCodeOf(verdicts, interrupts.count > 0);
  } catch (err) {
    await closeWithin(sink).catch(() => undefined);
    throw err;
  } finally {
    removeInterrupt();
  }
}

/** The verdict event normally precedes the promise: writes each verdict that was not written yet. */
function writeUnseenVerdicts(verdicts: Verdict[], seen: ReadonlySet<string>, write: (e: RolloutEvent) => void): void {
  for (const v of verdicts) {
    if (seen.has(verdictKey(v))) continue;
    write({ type: 'verdict', at: v.finishedAt, workload: v.workload, deployment: v.deployment, kind: v.workload.kind, verdict: v });
  }
}

/**
 * The targets checked before anything is opened: a flag refused for a kind (--pulumi-messages is
 * the sink's, not the tracker's), then the tracker's own validation (a bad name or namespace is its
 * 'bad-input' error, exit 2, in its words). Returns the first target's kubeconfig and namespace.
 */
function validatedTargets(
  options: CliOptions,
  common: ReturnType<typeof sharedTrackOptions>,
  resolve: typeof import('../track/index.js').resolveTrackOptions,
) {
  for (const { kind, name } of options.targets) {
    const refused = kindRefusal(kind, name, { pulumiMessages: options.pulumiMessages });
    if (refused) throw new UsageError(refused);
  }
  const { kubeconfig, context } = options;
  const resolved = options.targets.map(({ kind, name }) =>
    resolve({ ...common, kind, name, namespace: options.namespace, kubeconfig, context }),
  );
  return resolved[0]!;
}

/** Ctrl-C so far, and what wakes a `--watch` wait. */
interface Interrupts {
  count: number;
  wake?: () => void;
}

/**
 * The first Ctrl-C stops the trackers (their verdicts say cancelled) and ends a `--watch`; a second
 * means "now": no more waiting for a graceful end, what is printed so far still goes out.
 */
function onInterrupts(io: CliIo, interrupts: Interrupts, tracking: { stop(): void }, flush: () => void): () => void {
  return io.onInterrupt(() => {
    interrupts.count++;
    if (interrupts.count === 1) {
      tracking.stop();
      interrupts.wake?.();
      return;
    }
    flush();
    io.stderr.write('\nrollout-trace: interrupted\n');
    process.exit(EXIT.interrupted);
  });
}

/** Which traced workload a verdict is about: `Kind/namespace/name`. */
function verdictKey(v: Verdict): string {
  const w = workloadOf(v);
  return `${w.kind}/${w.namespace}/${w.name}`;
}

/** What every traced Deployment is tracked with (all but its name, namespace and cluster). */
function sharedTrackOptions(options: CliOptions) {
  return {
    ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
    ...(options.noProgressTimeoutSeconds !== undefined ? { noProgressTimeoutSeconds: options.noProgressTimeoutSeconds } : {}),
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    logs: options.logs,
    redact: options.redact,
    notFoundGraceSeconds: options.waitForCreationSeconds,
    ...(options.minGeneration !== undefined ? { minGeneration: options.minGeneration } : {}),
    ...(options.record !== undefined ? { record: options.record } : {}),
  };
}

/**
 * `-l SELECTOR`: the workloads of the asked kinds it matches become the targets (said on stderr, so
 * a CI log shows what was traced). The kubeconfig and namespace are resolved and validated as for named ones.
 */
async function selected(
  options: CliOptions,
  io: CliIo,
  resolve: typeof import('../track/index.js').resolveTrackOptions,
): Promise<CliOptions> {
  const { workloadsMatching } = await import('../cluster/index.js');
  // Any valid name: only the kubeconfig, context and namespace are used from it.
  const { kc, namespace, timeoutSeconds } = resolve({
    name: 'selector',
    namespace: options.namespace,
    kubeconfig: options.kubeconfig,
    context: options.context,
    ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
  });
  // As patient as the trace itself: a busy apiserver (200 rollouts starting at once in the bench)
  // may take longer than a few seconds to answer the list.
  const kinds = options.selectorKinds ?? ['Deployment'];
  const targets = await workloadsMatching(kc, namespace, kinds, options.selector!, timeoutSeconds);
  const what =
    kinds.length === 1
      ? `${targets.length} ${kinds[0]}${targets.length === 1 ? '' : 's'} in ${namespace}: ${targets.map((t) => t.name).join(', ')}`
      : `${targets.length} workload${targets.length === 1 ? '' : 's'} in ${namespace}: ${targets.map((t) => `${t.kind}/${t.name}`).join(', ')}`;
  io.stderr.write(`rollout-trace: -l ${options.selector} selects ${what}\n`);
  return { ...options, targets };
}

/**
 * `--watch`: the trackers watch on after their verdicts (their events keep reaching the sink) for
 * `--watch-for`, until Ctrl-C (`setWake`), or until a watch error, which is thrown.
 */
async function watchAfterVerdict(
  options: CliOptions,
  tty: boolean,
  io: CliIo,
  watchEnded: Promise<unknown>,
  setWake: (wake: () => void) => void,
): Promise<void> {
  // The TTY tree says so itself; elsewhere stdout is the log or JSON, so this goes to stderr.
  if (!tty)
    io.stderr.write(
      `rollout-trace: watching for changes ${options.watchSeconds !== undefined ? `for ${options.watchSeconds}s` : 'until Ctrl-C'}\n`,
    );
  const ended = new Promise<void>((resolve) => {
    setWake(resolve);
    if (options.watchSeconds !== undefined) setLongTimeout(resolve, options.watchSeconds * 1000).unref();
  });
  const error = await Promise.race([ended, watchEnded]);
  if (error !== undefined) throw error;
}

/** How long the exit waits for the output to drain (a stalled terminal or pipe must not hold it). */
const CLOSE_WAIT_MS = 2000;

/** Closes the sink, giving up after {@link CLOSE_WAIT_MS}: whatever the terminal does, the CLI exits. */
async function closeWithin(sink: Sink): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
  });
  try {
    await Promise.race([sink.close(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const CLUSTER_CODES: ReadonlySet<RolloutTraceError['code']> = new Set([
  'kubeconfig',
  'cluster-unreachable',
  'forbidden',
  'workload-not-found',
  'namespace-not-found',
]);

/** Prints one paragraph on stderr and maps the error to an exit code. */
function reportError(err: unknown, io: CliIo): ExitCode {
  if (err instanceof UsageError) {
    io.stderr.write(`rollout-trace: ${err.message}\n`);
    return EXIT.usage;
  }
  if (isRolloutTraceError(err)) {
    io.stderr.write(`rollout-trace: ${err.message}\n`);
    return CLUSTER_CODES.has(err.code) ? EXIT.cluster : EXIT.usage;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr.write(
    `rollout-trace: internal error: ${message.split('\n')[0]}. This is a bug in rollout-trace, not a problem with ` +
      'your cluster or command line; please report it with the command you ran and this message ' +
      '(set ROLLOUT_TRACE_DEBUG=1 to include the stack trace).\n',
  );
  if (io.env.ROLLOUT_TRACE_DEBUG) io.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  return EXIT.internal;
}
