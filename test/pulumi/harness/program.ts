/**
 * Runs one Pulumi program through the real @pulumi/pulumi runtime, as `pulumi up` (or preview)
 * would, with the engine replaced by doubles: `runtime.setMocks` (resource monitor) backed by the
 * kubernetes provider stand-in, and the gRPC Engine double that records every `pulumi.log` call.
 *
 * One program per process: setMocks and the SDK's runtime state are global, and node:test runs
 * each test file in its own process, so each scenario lives in its own file.
 */
import { kubeConfig } from '../../helpers/cluster.js';
import { type LogRecord, startEngine } from './engine.js';
import { kubernetesProviderMocks, type ProviderRecord } from './k8s-provider.js';

/** The result of one program run. */
export interface ProgramRun {
  logs: LogRecord[];
  provider: ProviderRecord;
  /** Errors the language host would have reported (like `pulumi up`'s run harness). */
  errors: { message: string; urn?: string }[];
  startedAt: number;
  finishedAt: number;
}

type Pulumi = typeof import('@pulumi/pulumi');

/** Options of {@link runProgram}. */
export interface RunOptions {
  preview?: boolean;
  /** The provider stand-in's await timeout (ms). */
  awaitTimeoutMs?: number;
  /** Called as each resource reaches the provider stand-in. */
  onResource?: (type: string, name: string) => Promise<void> | void;
  /**
   * The program, as `index.ts` of a Pulumi project would run it. Import the SDK-using modules
   * inside it (dynamic import): the SDK reads the engine address when it is first used.
   */
  program: (pulumi: Pulumi) => unknown;
  /** Called as the engine receives each `pulumi.log` record (e.g. to show it from a child process). */
  onLog?: (record: LogRecord) => void;
}

/** Runs the program to completion (every RPC drained) and returns what the engine saw. */
export async function runProgram(options: RunOptions): Promise<ProgramRun> {
  const engine = await startEngine(options.onLog);
  // Must be set before the SDK creates its settings store (first use), so import it afterwards.
  process.env.PULUMI_NODEJS_ENGINE = engine.address;
  // The default kubernetes provider (and so rollout-trace's default) reads $KUBECONFIG.
  process.env.KUBECONFIG ??= process.env.ROLLOUT_TRACE_KUBECONFIG;
  const pulumi: Pulumi = await import('@pulumi/pulumi');
  const preview = options.preview ?? false;
  const { mocks, record } = kubernetesProviderMocks(
    { kc: kubeConfig(), awaitTimeoutMs: options.awaitTimeoutMs, onResource: options.onResource },
    preview,
  );
  await pulumi.runtime.setMocks(mocks, 'rollout-trace-test', 'dev', preview);

  // What the language host's run harness does with errors that escape the program
  // (@pulumi/pulumi cmd/run/run.js): report each once, a ResourceError against its resource.
  const errors: ProgramRun['errors'] = [];
  const reported = new Set<unknown>();
  const pending: Promise<unknown>[] = [];
  const report = (err: unknown) => {
    if (reported.has(err)) return;
    reported.add(err);
    if (pulumi.ResourceError.isInstance(err)) {
      const message = err.hideStack ? err.message : String(err.stack ?? err.message);
      pending.push(
        (async () => {
          const urn = err.resource ? await new Promise<string>((r) => err.resource!.urn.apply((u) => (r(u), u))) : undefined;
          errors.push({ message, urn });
          await pulumi.log.error(message, err.resource);
        })(),
      );
    } else {
      const message = err instanceof Error ? err.message : String(err);
      errors.push({ message });
      pending.push(pulumi.log.error(message));
    }
  };
  // The language host's handler is the only one in a real run: park node:test's meanwhile.
  const others = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', report);
  const startedAt = Date.now();
  try {
    await pulumi.runtime.runInPulumiStack(async () => {
      await options.program(pulumi);
    });
  } catch (err) {
    report(err);
  }
  // Like the language host: the program ends when every registration RPC (including each
  // component's outputs, i.e. each trace's verdict) has finished.
  await (pulumi.runtime as unknown as { disconnect(): Promise<void> }).disconnect().catch(report);
  await new Promise((r) => setTimeout(r, 50));
  await Promise.all(pending);
  await (pulumi.runtime as unknown as { disconnect(): Promise<void> }).disconnect().catch(() => undefined);
  const finishedAt = Date.now();
  process.off('unhandledRejection', report);
  for (const l of others) process.on('unhandledRejection', l);
  await engine.stop();
  return { logs: engine.logs, provider: record, errors, startedAt, finishedAt };
}

/** The user-visible log records (the SDK's own debug lines dropped). */
export function visible(run: ProgramRun): LogRecord[] {
  return run.logs.filter((l) => l.severity > 0);
}
