/**
 * Runs Pulumi programs the way an Automation API inline program runs: the SDK's own
 * `LanguageServer` (@pulumi/pulumi/automation/server.js, what `LocalWorkspace` hosts) served over
 * gRPC in this process and driven through its `run` method, against the engine double
 * (monitor.ts). Every run of one {@link TestStack} happens in the same process with the same
 * state, so a second run is an update, as in an Automation API app calling `up()` twice.
 */
import { createRequire } from 'node:module';
import { grpc } from './callbacks.js';
import type { LogRecord } from './engine.js';
import type { ProviderOp } from './k8s-provider.js';
import { type Monitor, type MonitorOptions, type Registration, type RunMode, startMonitor } from './monitor.js';

const require = createRequire(import.meta.url);
const { LanguageServer } = require('@pulumi/pulumi/automation/server.js');
const langGrpc = require('@pulumi/pulumi/proto/language_grpc_pb.js');
const langPb = require('@pulumi/pulumi/proto/language_pb.js');

type Pulumi = typeof import('@pulumi/pulumi');

/** What one run showed the engine. */
export interface RunResult {
  /** The run's error as the language host returned it ('' when the program succeeded). */
  error: string;
  /** Log records of this run. */
  logs: LogRecord[];
  /** Provider operations of this run (deletes of the run's end included). */
  ops: ProviderOp[];
  registrations: Registration[];
  startedAt: number;
  finishedAt: number;
}

/** A stack: the engine double, its state, and a language host serving inline programs. */
export interface TestStack {
  monitor: Monitor;
  /**
   * Runs a program (`pulumi up`, `preview` with `dryRun`, `destroy --run-program` with `destroy`,
   * `refresh --run-program` with `refresh`, `--target` with `targets`, `--replace` with `replace`).
   */
  run(program: (pulumi: Pulumi) => unknown, mode?: Partial<RunMode>, config?: Record<string, string>): Promise<RunResult>;
  stop(): Promise<void>;
}

/** Starts the engine double and a language host for inline programs. */
export async function startStack(options: MonitorOptions = {}): Promise<TestStack> {
  process.env.KUBECONFIG ??= process.env.ROLLOUT_TRACE_KUBECONFIG;
  // Programs run like an interactive `pulumi up` (all live lines) even when the tests run in CI or
  // a dumb terminal; a test of the non-interactive output sets CI itself.
  delete process.env.CI;
  if (process.env.TERM?.toLowerCase() === 'dumb') delete process.env.TERM;
  const monitor = await startMonitor(options);
  const pulumi: Pulumi = await import('@pulumi/pulumi');
  let program: (p: Pulumi) => unknown = () => undefined;
  const server = new grpc.Server();
  server.addService(langGrpc.LanguageRuntimeService, new LanguageServer(() => program(pulumi)));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const client = new langGrpc.LanguageRuntimeClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  const runOnce = (dryRun: boolean, config: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const req = new langPb.RunRequest();
      req.setMonitorAddress(monitor.address);
      req.setArgsList([monitor.address]);
      req.setProject(monitor.project);
      req.setStack(monitor.stack);
      req.setDryrun(dryRun);
      req.setPwd(process.cwd());
      req.setProgram('.');
      for (const [k, v] of Object.entries(config)) req.getConfigMap().set(k, v);
      client.run(req, (err: { details?: string; message: string } | null, resp: any) =>
        resolve(err ? (err.details ?? err.message) : (resp?.getError() ?? '')),
      );
    });

  return {
    monitor,
    async run(p, mode = {}, config = {}) {
      program = p;
      const logsFrom = monitor.logs.length;
      const opsFrom = monitor.ops.length;
      monitor.beginRun({ ...mode, dryRun: mode.dryRun ?? false });
      // The language server installs its own handlers for the run (as the real host does):
      // node:test's would count the program's reported errors as test failures.
      const parked = process.listeners('unhandledRejection');
      process.removeAllListeners('unhandledRejection');
      const startedAt = Date.now();
      const error = await runOnce(mode.dryRun ?? false, { ...options.config, ...config });
      for (const l of parked) process.on('unhandledRejection', l);
      await monitor.endRun(error !== '');
      return {
        error,
        logs: monitor.logs.slice(logsFrom),
        ops: monitor.ops.slice(opsFrom),
        registrations: monitor.registrations,
        startedAt,
        finishedAt: Date.now(),
      };
    },
    async stop() {
      client.close();
      server.forceShutdown();
      await monitor.stop();
    },
  };
}

/** The user-visible log records (the SDK's own debug lines dropped). */
export function shown(run: RunResult): LogRecord[] {
  return run.logs.filter((l) => l.severity > 0);
}

/** The messages logged on one row (by resource name), in order. */
export function linesOf(run: RunResult, name: string): string[] {
  return shown(run)
    .filter((l) => l.urn.endsWith(`::${name}`))
    .map((l) => l.message);
}
