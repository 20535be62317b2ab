/**
 * Fault-suite helpers: run the real CLI against a cluster, act on the cluster when its output
 * reaches a given point, and check the verdict line, the exit code and that the process exits
 * within 1 s of printing its verdict. Each case prints one `[fault] ...` figure line.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { TestContext } from 'node:test';
import { type CliRun, type RunOptions, runCli } from '../integration/cli/run-cli.js';
import { createDeployment, type DeploymentShape } from '../integration/track/helpers.js';
import { clients, kubeconfigPath, withNamespace } from './cluster.js';

/** The verdict line of the plain and TTY outputs, e.g. `✔ Deployment ns/web: SUCCEEDED - ...` (or `StatefulSet ns/db`...). */
export const VERDICT_LINE =
  /^.*(?:Deployment|StatefulSet|DaemonSet|Job) [a-z0-9-]+\/[a-z0-9.-]+: (SUCCEEDED|FAILED|TIMED OUT|CANCELLED|PAUSED)\b.*$/m;

/** An action run once, when the CLI's stdout (or stderr) first matches `when`. */
export interface Trigger {
  when: RegExp;
  stream?: 'stdout' | 'stderr';
  run: (child: ChildProcess) => Promise<unknown> | unknown;
}

/** A CLI run of a fault case. */
export interface FaultRun extends CliRun {
  startedAt: number;
  /** The first verdict line, and when it appeared. */
  verdictLine?: string;
  verdictAt?: number;
  /** The first `rollout-trace: ...` paragraph on stderr, and when it appeared. */
  errorLine?: string;
  errorAt?: number;
}

/**
 * `deploy NAME -n NS --kubeconfig <the test cluster's> ...extra`. No `-o`: the CLI picks its sink
 * as in real use (plain lines in a pipe, GitHub Actions lines with GITHUB_ACTIONS, TTY on a terminal).
 */
export function deployArgs(ns: string, name: string, ...extra: string[]): string[] {
  return ['deploy', name, '-n', ns, '--kubeconfig', kubeconfigPath(), ...extra];
}

/** Runs the CLI; fires each trigger once; rethrows a trigger's error after the process ended. */
export async function traceCli(args: string[], triggers: Trigger[] = [], options: RunOptions = {}): Promise<FaultRun> {
  const startedAt = Date.now();
  const fired: Promise<unknown>[] = [];
  const pending = new Set(triggers);
  const marks: Partial<FaultRun> = {};
  const watch = (stream: 'stdout' | 'stderr') => (text: string, child: ChildProcess) => {
    if (stream === 'stdout' && marks.verdictAt === undefined) {
      // The TTY sink styles the line (bold name, coloured outcome): match the text without SGR codes.
      const m = VERDICT_LINE.exec(text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''));
      if (m) Object.assign(marks, { verdictLine: m[0], verdictAt: Date.now() });
    }
    if (stream === 'stderr' && marks.errorAt === undefined) {
      const m = /^rollout-trace: .*\n/m.exec(text);
      if (m) Object.assign(marks, { errorLine: m[0].trimEnd(), errorAt: Date.now() });
    }
    for (const t of pending) {
      if ((t.stream ?? 'stdout') !== stream || !t.when.test(text)) continue;
      pending.delete(t);
      fired.push(Promise.resolve().then(() => t.run(child)));
    }
    (stream === 'stdout' ? options.onStdout : options.onStderr)?.(text, child);
  };
  // A loaded CI machine can take a minute just to start the CLI: generous unless the case says otherwise.
  const run = await runCli(args, { timeoutMs: 300_000, ...options, onStdout: watch('stdout'), onStderr: watch('stderr') });
  await Promise.all(fired);
  assert.equal(pending.size, 0, `a trigger never fired: ${[...pending].map((t) => t.when).join(', ')}\n${outputOf(run)}`);
  return { ...run, ...marks, startedAt };
}

/**
 * The run's output for an assertion message: the signal that ended it, if one did, and at most the
 * last 4000 characters of each stream (a runaway run writes megabytes).
 */
export function outputOf(run: CliRun): string {
  const tail = (text: string) => (text.length > 4000 ? `[... ${text.length - 4000} characters cut]${text.slice(-4000)}` : text);
  const ended = run.signal ? `--- ended by ${run.signal} after ${run.ms} ms\n` : '';
  return `${ended}--- stdout\n${tail(run.stdout)}\n--- stderr\n${tail(run.stderr)}`;
}

/** Asserts the exit code, the verdict line, and an exit within 1 s of that line. */
export function expectVerdict(run: FaultRun, expected: { code: number; verdict: RegExp }): void {
  const all = outputOf(run);
  assert.ok(run.verdictLine !== undefined && run.verdictAt !== undefined, `no verdict line (exit ${run.code})\n${all}`);
  assert.match(run.verdictLine, expected.verdict, all);
  assert.equal(run.code, expected.code, all);
  const lag = run.exitedAt - run.verdictAt;
  assert.ok(lag <= 1000, `exited ${lag} ms after printing the verdict\n${all}`);
}

/** Asserts the exit code, the stderr paragraph, and an exit within 1 s of that paragraph. */
export function expectError(run: FaultRun, expected: { code: number; message: RegExp }): void {
  const all = outputOf(run);
  assert.ok(run.errorLine !== undefined && run.errorAt !== undefined, `no error paragraph (exit ${run.code})\n${all}`);
  assert.match(run.errorLine, expected.message, all);
  assert.equal(run.code, expected.code, all);
  const lag = run.exitedAt - run.errorAt;
  assert.ok(lag <= 1000, `exited ${lag} ms after printing the error\n${all}`);
}

/** Prints `[fault] NAME: verdict X after N s, exit C N s after the verdict` (diagnostic and stderr). */
export function figure(t: TestContext, name: string, run: FaultRun, extra = ''): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;
  const word = run.verdictLine ? (VERDICT_LINE.exec(run.verdictLine)?.[1] ?? '?').toLowerCase() : undefined;
  const at = run.verdictAt ?? run.errorAt;
  const what = word ? `verdict ${word}` : run.errorLine ? 'error' : 'no verdict';
  const line =
    at !== undefined
      ? `[fault] ${name}: ${what} after ${s(at - run.startedAt)}, exit ${run.code} ${s(run.exitedAt - at)} after the ${word ? 'verdict' : 'error'}${extra ? `; ${extra}` : ''}`
      : `[fault] ${name}: no verdict, exit ${run.code} after ${s(run.exitedAt - run.startedAt)}${extra ? `; ${extra}` : ''}`;
  t.diagnostic(line);
  process.stderr.write(`${line}\n`);
}

/** A pod line of revision 1 in ContainerCreating: the rollout is under way. */
export const REVISION_1_CREATING = /pod web-\S+ \(revision 1\): container-creating/;

/**
 * Creates the Deployment once the CLI says it is tracing (run the CLI with `--wait-for-creation`):
 * its pods' clocks (e.g. `slow-start`) then start when the CLI is already up, however long a
 * loaded machine takes to start it.
 */
export function createWhenTracing(ns: string, name: string, shape: DeploymentShape): Trigger {
  return { when: /tracing rollout/, run: () => createDeployment(ns, name, shape) };
}

/**
 * The common shape of an outage case: `web` (2 pods that start 20 s after they are created, well
 * after the outage ends) is traced by the CLI; once a pod is ContainerCreating, `fault` runs (it
 * returns a figure to print, e.g. how long the outage lasted). The rollout must still succeed.
 */
export async function survivesMidRollout(t: TestContext, label: string, fault: (ns: string) => Promise<string>): Promise<FaultRun> {
  const ns = await withNamespace(t, `fault-${label.replace(/\W+/g, '-')}`);
  let said = '';
  const run = await traceCli(deployArgs(ns, 'web', '--timeout', '150s', '--wait-for-creation', '60s'), [
    createWhenTracing(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=20' } }),
    { when: REVISION_1_CREATING, run: async () => (said = await fault(ns)) },
  ]);
  figure(t, label, run, said);
  expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 1 rolled out: 2\/2 pods ready/ });
  return run;
}

/**
 * Makes a watch from the namespace's current resourceVersion answer 410 Gone: reads that version,
 * writes one object so the world moves on, then restarts kube-apiserver (`restartApiserver`), whose
 * new watch cache starts past it. @returns the resourceVersion, now too old.
 */
export async function outdateResourceVersion(namespace: string, restartApiserver: () => Promise<void>): Promise<string> {
  const { core } = clients();
  // The CLI's resourceVersions are at most this one...
  const oldRv = (await core.listNamespacedPod({ namespace })).metadata!.resourceVersion!;
  // ...and the world moves on, so the restarted watch cache starts past it.
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'bump' } } });
  await restartApiserver();
  return oldRv;
}
