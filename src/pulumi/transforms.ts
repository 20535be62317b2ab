/**
 * The transforms behind `traceDeployments()` / `traceWorkloads()`: they give every workload
 * resource of the traced kinds its {@link RolloutTrace}.
 *
 * The SDK-side stack transformation sees the resources the program constructs (its own
 * components, `yaml.ConfigFile`, `helm.v3.Chart`) and so can give `rolloutOf(resource)` at once.
 * The engine-side `registerResourceTransform` is called back by the engine for every
 * registration, children of provider-side components included (`helm.v4.Chart`,
 * `yaml.v2.ConfigFile`/`ConfigGroup`, `kustomize.v2.Directory`); it traces the workloads the first
 * one did not see.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as pulumi from '@pulumi/pulumi';
import type { WorkloadKind } from '../core/index.js';
import type { ProviderSettings } from './baseline.js';
import { type CustomTimeouts, durationSeconds, gateAnnotations } from './decisions.js';
import { declaredHere, type SourcePosition } from './declared-at.js';
import { holdOutputs } from './held-outputs.js';
import type { TraceOptions } from './options.js';
import { outputValue, withAnnotations, withDependency } from './outputs.js';
import { captureProvider, providerOf, settingsFor, stackConfigSettings } from './providers.js';
import { RELEASE_TYPE } from './release.js';
import { ReleaseTrace } from './release-trace.js';
import { RolloutTrace } from './rollout-trace.js';
import { rememberUnder } from './rollouts-of.js';
import { currentRun, markTraced, type RunState, tracedInProgram, tracedInProgramAt } from './run-state.js';
import { componentRegistered, noteComponent } from './step-end.js';
import type { WrittenResource } from './trace-written.js';
import { isPatchType, WORKLOAD_TYPES } from './workload-kinds.js';

const PROVIDER_TYPE = 'pulumi:providers:kubernetes';

/** The trace of each traced workload resource. */
export const traces = new WeakMap<pulumi.Resource, RolloutTrace>();

/**
 * Returns a copy of workload args whose provider await returns as soon as the object is written
 * (`pulumi.com/waitFor` on its name), keeping the provider's delete wait; a `waitFor` or
 * `skipAwait` the program set is kept as it is. Needs pulumi-kubernetes >= 4.18.4.
 */
export function withGateAwait<T>(args: T): T {
  return withAnnotations(args, gateAnnotations);
}

/** The trace's resource name: `<name>-rollout` for a Deployment, `<name>-<kind>-rollout` for the others. */
export function traceName(resourceName: string, kind: WorkloadKind): string {
  return kind === 'Deployment' ? `${resourceName}-rollout` : `${resourceName}-${kind.toLowerCase()}-rollout`;
}

/** The resource's `customTimeouts`, in seconds. */
export function customTimeoutsOf(opts: pulumi.CustomResourceOptions): CustomTimeouts | undefined {
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
 * The trace mode of one resource. A `*Patch` is observed even in gate mode: the gate's
 * `pulumi.com/waitFor` would stay on an object that another stack or tool owns and change that
 * owner's await, so the provider's own await stays in charge of a patch.
 */
function modeFor(type: string, options: TraceOptions): TraceOptions['mode'] {
  return isPatchType(type) ? 'observe' : options.mode;
}

/** The kind of a resource type when it is one of `kinds`. */
function tracedKind(type: string, kinds: ReadonlySet<WorkloadKind>): WorkloadKind | undefined {
  const kind = WORKLOAD_TYPES[type];
  return kind && kinds.has(kind) ? kind : undefined;
}

/** The SDK-side transformation: resources the program itself constructs. */
export function programTransform(options: TraceOptions, kinds: ReadonlySet<WorkloadKind>): pulumi.ResourceTransformation {
  return (args) => {
    const run = currentRun();
    if (args.type === PROVIDER_TYPE) {
      captureProvider(args.resource, args.props, run.providersByUrn);
      return undefined;
    }
    const opts = args.opts as pulumi.CustomResourceOptions;
    // A provider-side component's registration ends its children's steps (step-end.ts).
    if (args.opts.urn === undefined) noteComponent(run, args.resource);
    if (args.type === RELEASE_TYPE && !isReadOrImport(opts)) return traceRelease(args, options, kinds, run);
    const kind = tracedKind(args.type, kinds);
    // gatedDeployment()/tracedDeployment() already trace theirs.
    if (!kind || isReadOrImport(opts) || tracedInProgram(run, kind, args.name, args.opts.parent)) return undefined;
    markTraced(run, kind, args.name, args.opts.parent);
    const mode = modeFor(args.type, options);
    const props = mode === 'gate' ? withGateAwait(args.props) : args.props;
    const provider = settingsFor(providerOf(opts, args.type), undefined, options, run.warnedProviders);
    const trace = new RolloutTrace(
      traceName(args.name, kind),
      {
        ...options,
        mode,
        kind,
        inputs: props,
        workloadName: args.name,
        deployment: args.resource as WrittenResource,
        provider,
        customTimeouts: customTimeoutsOf(opts),
        ...declaration(),
      },
      { parent: args.opts.parent },
    );
    traces.set(args.resource, trace);
    rememberUnder(run, args.opts.parent, trace);
    // The gate ends the provider's await at the write: what waited for that await waits for the gate.
    if (mode === 'gate') holdOutputs(args.resource, props, trace.gateOpen);
    return { props, opts: { ...args.opts, dependsOn: withDependency(args.opts.dependsOn, trace.baseline) } };
  };
}

/**
 * A `helm.v3.Release`: the provider runs helm and registers no resource per object, so its
 * workloads are observed (release-trace.ts), on a `<name>-release-rollouts` row, in either mode.
 * The release waits for the trace's read of its live workloads, as a traced workload does.
 */
function traceRelease(
  args: pulumi.ResourceTransformationArgs,
  options: TraceOptions,
  kinds: ReadonlySet<WorkloadKind>,
  run: RunState,
): pulumi.ResourceTransformationResult {
  const provider = settingsFor(providerOf(args.opts, args.type), undefined, options, run.warnedProviders);
  // The resource's outputs exist once its constructor returned (after this transformation).
  const provided = Promise.resolve().then(() => outputValue(args.resource.urn));
  provided.catch(() => undefined);
  const trace = new ReleaseTrace(
    `${args.name}-release-rollouts`,
    { ...options, mode: 'observe', inputs: args.props, resourceName: args.name, kinds: [...kinds], provider, provided },
    { parent: args.opts.parent },
  );
  // The install or upgrade starts only once the release's live workloads were read.
  return { props: args.props, opts: { ...args.opts, dependsOn: withDependency(args.opts.dependsOn, trace.baseline) } };
}

/** Where the resource being constructed was declared, for its trace's args. */
export function declaration(): { declaredAt?: SourcePosition } {
  const at = declaredHere();
  return at ? { declaredAt: at } : {};
}

/** The engine-side transform: workloads created by provider-side (remote) components. */
export function engineTransform(options: TraceOptions, kinds: ReadonlySet<WorkloadKind>): pulumi.ResourceTransform {
  // The engine calls back through the SDK's Callbacks server, outside the run's async context
  // (the SDK keeps its per-run state there): re-enter the context of the run that registered us.
  const run = currentRun();
  const inRun = AsyncLocalStorage.snapshot();
  return (args) => inRun(() => engineTraced(options, kinds, run, args));
}

async function engineTraced(
  options: TraceOptions,
  kinds: ReadonlySet<WorkloadKind>,
  run: RunState,
  args: pulumi.ResourceTransformArgs,
): Promise<pulumi.ResourceTransformResult | undefined> {
  const opts = args.opts as pulumi.CustomResourceOptions;
  const kind = tracedKind(args.type, kinds);
  if (!kind || isReadOrImport(opts)) return undefined;
  const parentUrn = opts.parent ? await outputValue(opts.parent.urn).catch(() => undefined) : undefined;
  if (await tracedInProgramAt(run, kind, args.name, parentUrn)) return undefined;
  let captured: ProviderSettings | undefined;
  if (opts.provider) captured = run.providersByUrn.get(await outputValue(opts.provider.urn));
  // Observed, even in gate mode: nobody can wait for this trace (it has no parent in the program
  // and no handle), while `dependsOn: [chart]` waits for the component's children, whose creates
  // the gate's waitFor would return at once. The provider's own await keeps them, so dependents
  // of the component still wait for the rollouts, as they do without rollout-trace.
  const mode = 'observe';
  const props = args.props;
  const trace = new RolloutTrace(traceName(args.name, kind), {
    ...options,
    mode,
    kind,
    inputs: props,
    workloadName: args.name,
    detached: true,
    provider: opts.provider ? settingsFor(opts.provider, captured, options, run.warnedProviders) : stackConfigSettings(),
    customTimeouts: customTimeoutsOf(opts),
    ...(parentUrn ? { stepEnded: componentRegistered(run, parentUrn) } : {}),
  });
  rememberUnder(run, parentUrn, trace);
  // The engine waits for this transform: the workload is sent only after the baseline read.
  await outputValue(trace.baseline);
  return { props: await outputValue(pulumi.output(props as pulumi.Inputs)), opts };
}
