/**
 * The program-facing helpers: trace every Deployment of a stack, or create one traced/gated
 * Deployment.
 */

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { TraceOptions } from './options.js';
import { withDependency } from './outputs.js';
import { SKIP_AWAIT } from './plan.js';
import { type ProviderSettings, RolloutTrace } from './rollout-trace.js';

const DEPLOYMENT_TYPE = 'kubernetes:apps/v1:Deployment';
const PROVIDER_TYPE = 'pulumi:providers:kubernetes';

/** Settings of every kubernetes provider created after {@link traceDeployments} was called. */
const providerSettings = new WeakMap<pulumi.Resource, ProviderSettings>();
/** traceDeployments() registers one stack transformation per program. */
let registered = false;
/** The trace of each traced Deployment. */
const traces = new WeakMap<pulumi.Resource, RolloutTrace>();

/** A Deployment and the trace that follows its rollouts. */
export interface TracedDeployment {
  deployment: k8s.apps.v1.Deployment;
  trace: RolloutTrace;
}

/**
 * Returns a copy of Deployment args with `pulumi.com/skipAwait: "true"`, so the kubernetes
 * provider returns right after writing the object and rollout-trace's gate owns the await.
 */
export function withSkipAwait(args: k8s.apps.v1.DeploymentArgs): k8s.apps.v1.DeploymentArgs {
  const metadata = pulumi.output(args.metadata ?? {}).apply((m = {}) => ({
    ...m,
    annotations: { ...(m.annotations ?? {}), [SKIP_AWAIT]: 'true' },
  }));
  return { ...args, metadata };
}

/** The trace rollout-trace created for a Deployment, if any. */
export function rolloutOf(deployment: pulumi.Resource): RolloutTrace | undefined {
  return traces.get(deployment);
}

function providerOf(opts: pulumi.ResourceOptions): pulumi.ProviderResource | undefined {
  const custom = opts as pulumi.CustomResourceOptions;
  if (custom.provider) return custom.provider;
  const providers = (opts as pulumi.ComponentResourceOptions).providers;
  if (Array.isArray(providers)) return providers.find((p) => (p as { getPackage?(): string }).getPackage?.() === 'kubernetes');
  if (providers && typeof providers === 'object') return (providers as Record<string, pulumi.ProviderResource>).kubernetes;
  return opts.parent?.getProvider(`${DEPLOYMENT_TYPE}`);
}

/**
 * The cluster settings of the provider a resource will use: the captured provider args, else
 * (default provider) the stack config `kubernetes:kubeconfig` / `kubernetes:context` /
 * `kubernetes:namespace`, else nothing (then `$KUBECONFIG` / `~/.kube/config`, like the provider).
 */
function settingsFor(opts: pulumi.ResourceOptions, explicit: TraceOptions): ProviderSettings {
  const provider = providerOf(opts);
  if (provider) {
    const captured = providerSettings.get(provider);
    if (captured) return captured;
    if (explicit.kubeconfig !== undefined) return {};
    void pulumi.log.warn(
      'rollout-trace: this Deployment uses a kubernetes provider created before traceDeployments() was called, ' +
        'so its kubeconfig is unknown; pass { kubeconfig, context } with the same values the provider got ' +
        '(falling back to $KUBECONFIG / ~/.kube/config)',
    );
    return {};
  }
  const config = new pulumi.Config('kubernetes');
  return { kubeconfig: config.get('kubeconfig'), context: config.get('context'), namespace: config.get('namespace') };
}

function traceName(deploymentName: string): string {
  return `${deploymentName}-rollout`;
}

/**
 * Traces every `kubernetes:apps/v1:Deployment` created after this call (a stack transformation),
 * each with its own {@link RolloutTrace} named `<deployment>-rollout`, and remembers the settings of
 * every kubernetes provider created after it, so each trace watches the same cluster as its
 * Deployment. With `mode: 'gate'` every Deployment also gets `pulumi.com/skipAwait`; make
 * dependents wait with `dependsOn: [rolloutOf(deployment)!.ready]`.
 *
 * Call it at the top of the program.
 */
export function traceDeployments(options: TraceOptions = {}): void {
  if (registered) {
    void pulumi.log.warn('rollout-trace: traceDeployments() was called more than once; only the first call counts');
    return;
  }
  registered = true;
  pulumi.runtime.registerStackTransformation((args) => {
    if (args.type === PROVIDER_TYPE) {
      const props = args.props as ProviderSettings;
      providerSettings.set(args.resource, { kubeconfig: props.kubeconfig, context: props.context, namespace: props.namespace });
      return undefined;
    }
    if (args.type !== DEPLOYMENT_TYPE) return undefined;
    const gate = options.mode === 'gate';
    const props = gate ? (withSkipAwait(args.props as k8s.apps.v1.DeploymentArgs) as pulumi.Inputs) : args.props;
    const trace = new RolloutTrace(
      traceName(args.name),
      {
        ...options,
        inputs: props,
        deploymentName: args.name,
        deployment: args.resource as k8s.apps.v1.Deployment,
        provider: settingsFor(args.opts, options),
      },
      { parent: args.opts.parent },
    );
    traces.set(args.resource, trace);
    return { props, opts: { ...args.opts, dependsOn: withDependency(args.opts.dependsOn, trace.baseline) } };
  });
}

function traced(
  name: string,
  args: k8s.apps.v1.DeploymentArgs,
  opts: pulumi.CustomResourceOptions | undefined,
  options: TraceOptions,
): TracedDeployment {
  const resourceOpts = opts ?? {};
  const trace = new RolloutTrace(
    traceName(name),
    { ...options, inputs: args, deploymentName: name, provider: settingsFor(resourceOpts, options) },
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
 * Creates a Deployment gated by rollout-trace: `pulumi.com/skipAwait: "true"` is added, and the
 * `<name>-rollout` resource owns the await with the failure policy. A failed rollout fails that
 * resource within the policy window with the full summary (reasons, log tails, events, kubectl
 * hints); resources that must wait for the rollout use `dependsOn: [trace.ready]`.
 */
export function gatedDeployment(
  name: string,
  args: k8s.apps.v1.DeploymentArgs,
  opts?: pulumi.CustomResourceOptions,
  options: Omit<TraceOptions, 'mode'> = {},
): TracedDeployment {
  return traced(name, withSkipAwait(args), opts, { ...options, mode: 'gate' });
}
