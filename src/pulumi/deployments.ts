/**
 * The program-facing helpers: trace every Deployment of a stack, or create one traced/gated
 * Deployment.
 *
 * `traceDeployments()` uses two transforms. The SDK-side stack transformation sees the resources
 * the program constructs (its own components, `yaml.ConfigFile`, `helm.v3.Chart`) and so can give
 * `rolloutOf(deployment)` at once. The engine-side `registerResourceTransform` is called back by
 * the engine for every registration, children of provider-side components included
 * (`helm.v4.Chart`, `yaml.v2.ConfigFile`/`ConfigGroup`, `kustomize.v2.Directory`); it traces the
 * Deployments the first one did not see.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { ProviderSettings } from './baseline.js';
import { type CustomTimeouts, durationSeconds, gateAnnotations } from './decisions.js';
import type { TraceOptions } from './options.js';
import { outputValue, withDependency } from './outputs.js';
import { SKIP_AWAIT } from './plan.js';
import { captureProvider, providerOf, settingsFor, stackConfigSettings } from './providers.js';
import { RolloutTrace } from './rollout-trace.js';
import { currentRun, markTraced, type RunState, tracedInProgram, tracedInProgramAt } from './run-state.js';

/** The resource types traced: the provider awaits both the same way (pk: await.go). */
const TRACED_TYPES = new Set(['kubernetes:apps/v1:Deployment', 'kubernetes:apps/v1:DeploymentPatch']);
const PROVIDER_TYPE = 'pulumi:providers:kubernetes';
const PATCH_TYPE = 'kubernetes:apps/v1:DeploymentPatch';

/** The trace of each traced Deployment resource. */
const traces = new WeakMap<pulumi.Resource, RolloutTrace>();

/** A Deployment and the trace that follows its rollouts. */
export interface TracedDeployment {
  deployment: k8s.apps.v1.Deployment;
  trace: RolloutTrace;
}

type Args = { metadata?: pulumi.Input<Record<string, unknown>> } & Record<string, unknown>;

/**
 * Changes only `metadata.annotations` of Deployment args: the other metadata fields stay as
 * they were (known during preview when they are known), so the provider's dry run and its
 * replacement check keep working.
 */
function withAnnotations<T>(args: T, change: (a: Record<string, unknown> | undefined) => Record<string, unknown>): T {
  const a = args as Args;
  const metadata = a.metadata;
  const isPlain =
    metadata === undefined || (typeof metadata === 'object' && !pulumi.Output.isInstance(metadata) && !(metadata instanceof Promise));
  if (isPlain) {
    const m = (metadata ?? {}) as Record<string, unknown>;
    const annotations = pulumi.output(m.annotations as pulumi.Input<Record<string, unknown>> | undefined).apply(change);
    return { ...a, metadata: { ...m, annotations } } as T;
  }
  const whole = pulumi.output(metadata).apply((m) => ({ ...(m ?? {}), annotations: change(m?.annotations as Record<string, unknown>) }));
  return { ...a, metadata: whole } as T;
}

/**
 * Returns a copy of Deployment args with `pulumi.com/skipAwait: "true"` (only the annotations are
 * touched). Note: for Deployments skipAwait also skips the provider's delete wait; the gate uses
 * {@link withGateAwait} instead.
 */
export function withSkipAwait(args: k8s.apps.v1.DeploymentArgs): k8s.apps.v1.DeploymentArgs {
  return withAnnotations(args, (a) => ({ ...(a ?? {}), [SKIP_AWAIT]: 'true' }));
}

/**
 * Returns a copy of Deployment args whose provider await returns as soon as the object is written
 * (`pulumi.com/waitFor` on its name), keeping the provider's delete wait; a `waitFor` or
 * `skipAwait` the program set is kept as it is. Needs pulumi-kubernetes >= 4.18.4.
 */
export function withGateAwait<T>(args: T): T {
  return withAnnotations(args, gateAnnotations);
}

/** The trace rollout-trace created for a Deployment, if any. */
export function rolloutOf(deployment: pulumi.Resource): RolloutTrace | undefined {
  return traces.get(deployment);
}

function traceName(deploymentName: string): string {
  return `${deploymentName}-rollout`;
}

function customTimeoutsOf(opts: pulumi.CustomResourceOptions): CustomTimeouts | undefined {
  const t = opts.customTimeouts;
  return t ? { create: durationSeconds(t.create), update: durationSeconds(t.update) } : undefined;
}

/**
 * A read (`.get()`, the `id` option), an import, or a reference to a resource registered
 * elsewhere (the `urn` option: the program rehydrating a remote component's children, which the
 * engine-side transform traces): nothing is rolled out here, nothing is traced.
 */
function isReadOrImport(opts: pulumi.CustomResourceOptions): boolean {
  return !!opts.id || !!opts.import || !!opts.urn;
}

/**
 * The trace mode of one resource. A `DeploymentPatch` is observed even in gate mode: the gate's
 * `pulumi.com/waitFor` would stay on a Deployment that another stack or tool owns and change that
 * owner's await, so the provider's own await stays in charge of a patch.
 */
function modeFor(type: string, options: TraceOptions): TraceOptions['mode'] {
  return type === PATCH_TYPE ? 'observe' : options.mode;
}

/** The SDK-side transformation: resources the program itself constructs. */
function programTransform(options: TraceOptions): pulumi.ResourceTransformation {
  return (args) => {
    const run = currentRun();
    if (args.type === PROVIDER_TYPE) {
      captureProvider(args.resource, args.props, run.providersByUrn);
      return undefined;
    }
    const opts = args.opts as pulumi.CustomResourceOptions;
    // gatedDeployment()/tracedDeployment() already trace theirs.
    if (!TRACED_TYPES.has(args.type) || isReadOrImport(opts) || tracedInProgram(run, args.name, args.opts.parent)) return undefined;
    markTraced(run, args.name, args.opts.parent);
    const mode = modeFor(args.type, options);
    const props = mode === 'gate' ? withGateAwait(args.props) : args.props;
    const provider = settingsFor(providerOf(opts, args.type), undefined, options, run.warnedProviders);
    const trace = new RolloutTrace(
      traceName(args.name),
      {
        ...options,
        mode,
        inputs: props,
        deploymentName: args.name,
        deployment: args.resource as k8s.apps.v1.Deployment,
        provider,
        customTimeouts: customTimeoutsOf(opts),
      },
      { parent: args.opts.parent },
    );
    traces.set(args.resource, trace);
    return { props, opts: { ...args.opts, dependsOn: withDependency(args.opts.dependsOn, trace.baseline) } };
  };
}

/** The engine-side transform: Deployments created by provider-side (remote) components. */
function engineTransform(options: TraceOptions): pulumi.ResourceTransform {
  // The engine calls back through the SDK's Callbacks server, outside the run's async context
  // (the SDK keeps its per-run state there): re-enter the context of the run that registered us.
  const run = currentRun();
  const inRun = AsyncLocalStorage.snapshot();
  return (args) => inRun(() => engineTraced(options, run, args));
}

async function engineTraced(
  options: TraceOptions,
  run: RunState,
  args: pulumi.ResourceTransformArgs,
): Promise<pulumi.ResourceTransformResult | undefined> {
  const opts = args.opts as pulumi.CustomResourceOptions;
  if (!TRACED_TYPES.has(args.type) || isReadOrImport(opts)) return undefined;
  const parentUrn = opts.parent ? await outputValue(opts.parent.urn).catch(() => undefined) : undefined;
  if (await tracedInProgramAt(run, args.name, parentUrn)) return undefined;
  let captured: ProviderSettings | undefined;
  if (opts.provider) captured = run.providersByUrn.get(await outputValue(opts.provider.urn));
  const mode = modeFor(args.type, options);
  const props = mode === 'gate' ? withGateAwait(args.props) : args.props;
  const trace = new RolloutTrace(traceName(args.name), {
    ...options,
    mode,
    inputs: props,
    deploymentName: args.name,
    detached: true,
    provider: opts.provider ? settingsFor(opts.provider, captured, options, run.warnedProviders) : stackConfigSettings(),
    customTimeouts: customTimeoutsOf(opts),
  });
  // The engine waits for this transform: the Deployment is sent only after the baseline read.
  await outputValue(trace.baseline);
  return { props: await outputValue(pulumi.output(props as pulumi.Inputs)), opts };
}

/**
 * Traces every `kubernetes:apps/v1:Deployment` (and `DeploymentPatch`) created after this call,
 * each with its own {@link RolloutTrace} named `<deployment>-rollout`, children of provider-side
 * components included, and remembers the settings of every kubernetes provider created after it,
 * so each trace watches the same cluster as its Deployment. With `mode: 'gate'` every Deployment's
 * provider await returns once it is written (see {@link withGateAwait}) and the trace owns the
 * await; make dependents wait with `dependsOn: [rolloutOf(deployment)!.ready]`. `Deployment.get()`
 * and imported Deployments are not traced.
 *
 * Call it at the top of the program (once per run; an Automation API app calls it in every run).
 */
export function traceDeployments(options: TraceOptions = {}): void {
  const run = currentRun();
  if (run.registered) {
    void pulumi.log.warn('rollout-trace: traceDeployments() was called more than once; only the first call counts');
    return;
  }
  run.registered = true;
  pulumi.runtime.registerStackTransformation(programTransform(options));
  try {
    pulumi.runtime.registerResourceTransform(engineTransform(options));
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
  markTraced(run, name, resourceOpts.parent);
  const trace = new RolloutTrace(
    traceName(name),
    {
      ...options,
      inputs: args,
      deploymentName: name,
      provider: settingsFor(providerOf(resourceOpts, 'kubernetes:apps/v1:Deployment'), undefined, options, run.warnedProviders),
      customTimeouts: customTimeoutsOf(resourceOpts),
    },
    { parent: resourceOpts.parent },
  );
  const deployment = new k8s.apps.v1.Deployment(name, args, {
    ...resourceOpts,
    dependsOn: withDependency(resourceOpts.dependsOn, trace.baseline),
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
