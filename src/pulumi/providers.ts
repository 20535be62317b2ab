/**
 * Which cluster a Deployment's trace watches: the settings its kubernetes provider was given,
 * captured when the provider is created after `traceDeployments()`, else the stack config of the
 * default provider. A provider that reaches the program as a resource reference (an output of a
 * remote component) is rebuilt with empty args (k8s-sdk: index.js): its kubeconfig is unknown, and
 * one warning line names what the trace falls back to; a gate refuses instead (it must not judge a
 * same-named Deployment in another cluster).
 */
import * as pulumi from '@pulumi/pulumi';
import type { ProviderSettings } from './baseline.js';
import type { TraceOptions } from './options.js';
import { outputValue } from './outputs.js';

/** Settings of every kubernetes provider created after traceDeployments() (by object, by URN). */
const byResource = new WeakMap<pulumi.Resource, ProviderSettings>();

/** The provider settings keys the trace reads, in the provider's own argument names. */
const KEYS = ['kubeconfig', 'context', 'cluster', 'namespace', 'renderYamlToDirectory', 'skipUpdateUnreachable'] as const;

/** Remembers the settings of a provider being created (its `args.props`), by object and URN. */
export function captureProvider(resource: pulumi.Resource, props: Record<string, unknown>, byUrn: Map<string, ProviderSettings>): void {
  const settings = Object.fromEntries(KEYS.map((k) => [k, props[k]])) as ProviderSettings;
  byResource.set(resource, settings);
  void outputValue(resource.urn).then(
    (urn) => byUrn.set(urn, settings),
    () => undefined,
  );
}

/** The default provider's settings: the stack config `kubernetes:*`. */
export function stackConfigSettings(): ProviderSettings {
  const config = new pulumi.Config('kubernetes');
  return {
    kubeconfig: config.get('kubeconfig'),
    context: config.get('context'),
    cluster: config.get('cluster'),
    namespace: config.get('namespace'),
    renderYamlToDirectory: config.get('renderYamlToDirectory'),
    skipUpdateUnreachable: config.getBoolean('skipUpdateUnreachable'),
  };
}

/** The explicit provider of a resource's options, if any. */
export function providerOf(opts: pulumi.ResourceOptions, type: string): pulumi.ProviderResource | undefined {
  const custom = opts as pulumi.CustomResourceOptions;
  if (custom.provider) return custom.provider;
  const providers = (opts as pulumi.ComponentResourceOptions).providers;
  if (Array.isArray(providers)) return providers.find((p) => (p as { getPackage?(): string }).getPackage?.() === 'kubernetes');
  if (providers && typeof providers === 'object') return (providers as Record<string, pulumi.ProviderResource>).kubernetes;
  return opts.parent?.getProvider(type);
}

/** Settings a gate refuses to use, with the reason (see {@link settingsFor}). */
const refusals = new WeakMap<ProviderSettings, string>();

/** Why a gate refuses these provider settings, or undefined. */
export function refusalOf(settings: ProviderSettings | undefined): string | undefined {
  return settings ? refusals.get(settings) : undefined;
}

/** What an unknown provider's trace falls back to, in words, and those settings. */
function fallback(): { settings: ProviderSettings; words: string } {
  const stack = stackConfigSettings();
  if (stack.kubeconfig !== undefined) return { settings: stack, words: 'the stack config kubernetes:kubeconfig' };
  return { settings: stack, words: process.env.KUBECONFIG ? `$KUBECONFIG (${process.env.KUBECONFIG})` : '~/.kube/config' };
}

/**
 * The settings of the provider a resource will use. `warned` holds the providers already warned
 * about in this run (one line per provider, not per Deployment).
 */
export function settingsFor(
  provider: pulumi.ProviderResource | undefined,
  captured: ProviderSettings | undefined,
  explicit: TraceOptions,
  warned: Set<unknown>,
): ProviderSettings {
  if (!provider) return stackConfigSettings();
  const known = captured ?? byResource.get(provider);
  if (known) return known;
  if (explicit.kubeconfig !== undefined) return {};
  const { settings, words } = fallback();
  if (explicit.mode === 'gate') {
    // A gate must not judge a same-named Deployment in another cluster: refuse (the trace fails).
    const refused: ProviderSettings = {};
    refusals.set(
      refused,
      'its kubernetes provider was created before traceDeployments() or rebuilt from a resource reference (an output of a remote component), ' +
        `so the cluster it writes to is unknown, and a gate does not guess (the fallback would be ${words}). ` +
        'Pass { kubeconfig, context } with the values the provider got, or create the provider after traceDeployments().',
    );
    return refused;
  }
  if (!warned.has(provider)) {
    warned.add(provider);
    void pulumi.log.warn(
      'rollout-trace: a kubernetes provider was created before traceDeployments() or rebuilt from a resource reference ' +
        `(an output of a remote component), so its kubeconfig is unknown; tracing its Deployments with ${words}. ` +
        'Pass { kubeconfig, context } with the values the provider got to be sure.',
    );
  }
  return settings;
}
