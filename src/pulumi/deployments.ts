/**
 * The program-facing helpers: trace every workload of a stack (`traceWorkloads()`), every
 * Deployment (`traceDeployments()`), or create one traced/gated Deployment. The transforms that do
 * the tracing are transforms.ts.
 */

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { WORKLOAD_KINDS, type WorkloadKind } from '../core/index.js';
import { holdOutputs } from './held-outputs.js';
import type { TraceOptions } from './options.js';
import { withAnnotations, withDependency } from './outputs.js';
import { SKIP_AWAIT } from './plan.js';
import { providerOf, settingsFor } from './providers.js';
import { RolloutTrace } from './rollout-trace.js';
import { rememberUnder } from './rollouts-of.js';
import { currentRun, markTraced } from './run-state.js';
import { customTimeoutsOf, declaration, engineTransform, programTransform, traceName, traces, withGateAwait } from './transforms.js';

export { withGateAwait } from './transforms.js';

/** A Deployment and the trace that follows its rollouts. */
export interface TracedDeployment {
  deployment: k8s.apps.v1.Deployment;
  trace: RolloutTrace;
}

/**
 * Returns a copy of Deployment args with `pulumi.com/skipAwait: "true"` (only the annotations are
 * touched). Note: for Deployments skipAwait also skips the provider's delete wait; the gate uses
 * {@link withGateAwait} instead.
 */
export function withSkipAwait(args: k8s.apps.v1.DeploymentArgs): k8s.apps.v1.DeploymentArgs {
  return withAnnotations(args, (a) => ({ ...(a ?? {}), [SKIP_AWAIT]: 'true' }));
}

/** The trace rollout-trace created for a workload resource (a Deployment, ...), if any. */
export function rolloutOf(deployment: pulumi.Resource): RolloutTrace | undefined {
  return traces.get(deployment);
}

/**
 * Traces every `kubernetes:apps/v1:Deployment` (and `DeploymentPatch`) created after this call,
 * each with its own {@link RolloutTrace} named `<deployment>-rollout`, children of provider-side
 * components included, and remembers the settings of every kubernetes provider created after it,
 * so each trace watches the same cluster as its Deployment. With `mode: 'gate'` every Deployment's
 * provider await returns once it is written (see {@link withGateAwait}) and the trace owns the
 * await; make dependents wait with `dependsOn: [rolloutOf(deployment)!.ready]`. `Deployment.get()`
 * and imported Deployments are not traced. {@link traceWorkloads} traces the other kinds too.
 *
 * Call it at the top of the program (once per run; an Automation API app calls it in every run).
 */
export function traceDeployments(options: TraceOptions = {}): void {
  register(options, ['Deployment'], 'traceDeployments()');
}

/**
 * Like {@link traceDeployments}, for every workload kind: Deployments, StatefulSets
 * (`apps/v1`), DaemonSets (`apps/v1`) and Jobs (`batch/v1`), and their `*Patch` resources
 * (observed only). A Deployment's trace is `<name>-rollout`; the others' `<name>-<kind>-rollout`
 * (e.g. `db-statefulset-rollout`). Gate mode gives each the same `pulumi.com/waitFor`, which
 * replaces the provider's await for every kind and keeps its delete wait (pk: await.go,
 * metadata/overrides.go). `rolloutOf(resource)` gives the trace.
 */
export function traceWorkloads(options: TraceOptions = {}): void {
  register(options, WORKLOAD_KINDS, 'traceWorkloads()');
}

function register(options: TraceOptions, kinds: readonly WorkloadKind[], call: string): void {
  const run = currentRun();
  if (run.registered) {
    void pulumi.log.warn(`rollout-trace: ${call} was called after traceDeployments() or traceWorkloads(); only the first call counts`);
    return;
  }
  run.registered = true;
  const traced = new Set(kinds);
  pulumi.runtime.registerStackTransformation(programTransform(options, traced));
  try {
    pulumi.runtime.registerResourceTransform(engineTransform(options, traced));
  } catch {
    // An engine without transform callbacks (or runtime.setMocks): program-side resources only.
  }
}

function traced(
  name: string,
  args: k8s.apps.v1.DeploymentArgs,
  opts: pulumi.CustomResourceOptions | undefined,
  options: TraceOptions,
): TracedDeployment {
  const resourceOpts = opts ?? {};
  const run = currentRun();
  markTraced(run, 'Deployment', name, resourceOpts.parent);
  const trace = new RolloutTrace(
    traceName(name, 'Deployment'),
    {
      ...options,
      inputs: args,
      workloadName: name,
      provider: settingsFor(providerOf(resourceOpts, 'kubernetes:apps/v1:Deployment'), undefined, options, run.warnedProviders),
      customTimeouts: customTimeoutsOf(resourceOpts),
      ...declaration(),
    },
    { parent: resourceOpts.parent },
  );
  rememberUnder(run, resourceOpts.parent, trace);
  // The gate ends the provider's await at the write: what waited for that await waits for the gate.
  const hold: pulumi.ResourceTransformation = (a) => {
    if (options.mode === 'gate') holdOutputs(a.resource, a.props, trace.gateOpen);
    return undefined;
  };
  const deployment = new k8s.apps.v1.Deployment(name, args, {
    ...resourceOpts,
    dependsOn: withDependency(resourceOpts.dependsOn, trace.baseline),
    transformations: [hold, ...(resourceOpts.transformations ?? [])],
  });
  trace.attach(deployment);
  traces.set(deployment, trace);
  return { deployment, trace };
}

/**
 * Creates a Deployment whose rollout is traced in observe mode: the kubernetes provider's await
 * stays in charge, rollout-trace streams live ReplicaSet/pod lines on the `<name>-rollout` row
 * while it runs and leaves a permanent summary if the rollout fails.
 */
export function tracedDeployment(
  name: string,
  args: k8s.apps.v1.DeploymentArgs,
  opts?: pulumi.CustomResourceOptions,
  options: Omit<TraceOptions, 'mode'> = {},
): TracedDeployment {
  return traced(name, args, opts, { ...options, mode: 'observe' });
}

/**
 * Creates a Deployment gated by rollout-trace: the provider's await returns once the object is
 * written ({@link withGateAwait}; its delete wait is kept), and the `<name>-rollout` resource owns
 * the await with the failure policy. A failed rollout fails that resource within the policy
 * window with the full summary (reasons, log tails, events, kubectl hints); resources that must
 * wait for the rollout use `dependsOn: [trace.ready]`.
 */
export function gatedDeployment(
  name: string,
  args: k8s.apps.v1.DeploymentArgs,
  opts?: pulumi.CustomResourceOptions,
  options: Omit<TraceOptions, 'mode'> = {},
): TracedDeployment {
  return traced(name, withGateAwait(args), opts, { ...options, mode: 'gate' });
}
