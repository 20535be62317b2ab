/**
 * Programs and checks shared by the workload scenarios: a workload's Pulumi args from a test
 * builder's object, a program that declares it with a dependent waiting for its trace, and the
 * permanent error on a row.
 */
import assert from 'node:assert/strict';
import { type RunResult, shown } from './langhost.js';

export type Lib = typeof import('../../../src/pulumi/index.js');
export type K8s = typeof import('@pulumi/kubernetes');

/** The Pulumi args of a builder's object: its metadata in `namespace`, its spec. */
export function argsOf(namespace: string, obj: { metadata?: { name?: string }; spec?: unknown }) {
  return { metadata: { name: obj.metadata?.name, namespace }, spec: obj.spec } as never;
}

/** The one permanent error of `run`, on the row `row`. */
export function errorOn(run: RunResult, row: string): string {
  const errors = shown(run).filter((l) => l.severity === 3 && !l.ephemeral);
  assert.ok(
    errors.some((e) => e.urn.endsWith(`::${row}`)),
    errors.map((e) => `${e.urn}: ${e.message}`).join('\n'),
  );
  return errors.find((e) => e.urn.endsWith(`::${row}`))?.message ?? '';
}

/** A program that declares `declare`'s workload under `traceWorkloads()` and a ConfigMap waiting for its trace. */
export function withDependent(namespace: string, mode: 'gate' | 'observe', declare: (k8s: K8s) => unknown, seen: { dependent?: boolean }) {
  return async () => {
    const lib: Lib = await import('../../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode, timeoutSeconds: 60 });
    const workload = declare(k8s) as import('@pulumi/pulumi').Resource;
    const trace = lib.rolloutOf(workload);
    assert.ok(trace, 'the workload is traced');
    const cm = new k8s.core.v1.ConfigMap('after', { metadata: { namespace }, data: { ok: 'yes' } }, { dependsOn: [trace.ready] });
    cm.id.apply(() => (seen.dependent = true));
  };
}
