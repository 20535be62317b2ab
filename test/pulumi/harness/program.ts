/**
 * One-run scenarios: runs a program once through the SDK's language server against the engine
 * double (langhost.ts, monitor.ts) and returns what the engine saw, in the shape the single-run
 * tests assert on. Scenarios with several runs use {@link startStack} directly.
 */
import type { LogRecord } from './engine.js';
import { startStack } from './langhost.js';

/** What the provider stand-in did, for assertions. */
export interface ProviderRecord {
  writes: number;
  /** Each built-in Deployment await (not waitFor): when it started/ended, and how. */
  awaits: { name: string; start: number; end: number; result: 'ready' | 'timeout' }[];
}

/** The result of one program run. */
export interface ProgramRun {
  logs: LogRecord[];
  provider: ProviderRecord;
  /** Errors the language host reported (error-severity logs), with the resource they name. */
  errors: { message: string; urn?: string }[];
  /** The run's error as the language host returned it ('' on success). */
  runError: string;
  startedAt: number;
  finishedAt: number;
}

type Pulumi = typeof import('@pulumi/pulumi');

/** Options of {@link runProgram}. */
export interface RunOptions {
  preview?: boolean;
  /** The provider stand-in's default await (ms; the real provider's is 10 minutes). */
  awaitTimeoutMs?: number;
  /** Called as each resource reaches the engine's step (before the provider acts). */
  onResource?: (type: string, name: string) => Promise<void> | void;
  /** The program, as `index.ts` of a Pulumi project would run it (import the library inside it). */
  program: (pulumi: Pulumi) => unknown;
  /** Called as the engine receives each `pulumi.log` record. */
  onLog?: (record: LogRecord) => void;
  /** Stack config (e.g. `kubernetes:kubeconfig`). */
  config?: Record<string, string>;
}

/** Runs the program to completion (every RPC drained) and returns what the engine saw. */
export async function runProgram(options: RunOptions): Promise<ProgramRun> {
  const stack = await startStack({
    onLog: options.onLog,
    beforeStep: options.onResource,
    defaultAwaitSeconds: options.awaitTimeoutMs !== undefined ? options.awaitTimeoutMs / 1000 : 60,
    config: options.config,
  });
  try {
    const run = await stack.run(options.program, { dryRun: options.preview ?? false });
    return {
      logs: run.logs,
      provider: {
        writes: run.ops.filter((o) => o.op === 'create' || o.op === 'update').length,
        awaits: run.ops
          .filter((o) => o.op === 'await' && o.how === 'deployment')
          .map((o) => ({ name: o.name, start: o.start ?? o.at, end: o.at, result: o.result === 'ready' ? 'ready' : 'timeout' })),
      },
      errors: run.logs.filter((l) => l.severity === 3).map((l) => ({ message: l.message, urn: l.urn || undefined })),
      runError: run.error,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
    };
  } finally {
    await stack.stop();
  }
}

/** The user-visible log records (the SDK's own debug lines dropped). */
export function visible(run: ProgramRun): LogRecord[] {
  return run.logs.filter((l) => l.severity > 0);
}
