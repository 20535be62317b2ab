/**
 * Small bridges between Pulumi Outputs and promises.
 *
 * `Output.apply` never runs while a value is unknown (during preview), so waiting on it would
 * hang a preview; these helpers report unknown values instead.
 */
import * as pulumi from '@pulumi/pulumi';

/**
 * A settled Output: its value, or `known: false` during a preview when it is not known yet.
 * `secret` is true when the value is, or contains, a Pulumi secret: never print it.
 */
export type Settled<T> = { known: true; value: T; secret: boolean } | { known: false };

interface OutputInternals<T> {
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  promise(withUnknowns?: boolean): Promise<T>;
}

/** Waits for an Input's value (deeply unwrapped, secrets included). Never hangs on unknowns. */
export async function settle<T>(input: pulumi.Input<T> | undefined): Promise<Settled<pulumi.Unwrap<T> | undefined>> {
  if (input === undefined) return { known: true, value: undefined, secret: false };
  const out = pulumi.output(input) as unknown as OutputInternals<pulumi.Unwrap<T>>;
  if (!(await out.isKnown)) return { known: false };
  // pulumi.output lifts nested secrets: a secret anywhere inside makes the whole value secret.
  const secret = (await out.isSecret) === true;
  return { known: true, value: await out.promise(), secret };
}

/** The value of an Output once it resolves (rejects if the resource failed). */
export async function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as OutputInternals<T>).promise();
}

/** Adds one more dependency to a resource's `dependsOn`, whatever shape it already has. */
export function withDependency(
  existing: pulumi.ResourceOptions['dependsOn'],
  extra: pulumi.Input<pulumi.Resource>,
): pulumi.ResourceOptions['dependsOn'] {
  if (existing === undefined) return [extra];
  if (Array.isArray(existing)) return [...existing, extra];
  if (pulumi.Resource.isInstance(existing)) return [existing, extra];
  return pulumi
    .all([pulumi.output(existing as pulumi.Input<pulumi.Resource | pulumi.Resource[]>), pulumi.output(extra)])
    .apply(([deps, more]) => [...(Array.isArray(deps) ? deps : [deps]), more]) as pulumi.Output<pulumi.Resource[]>;
}

/**
 * `value`, also carrying `resource` as a dependency once it is registered: `dependsOn: [it]`
 * then records `resource` in the state (the SDK adds an Output's resources to the dependencies,
 * sdk: runtime/dependsOn.ts gatherExplicitDependencies), where a component with no custom
 * children would record nothing.
 */
export function carryingDependency<T>(value: pulumi.Output<T>, resource: Promise<pulumi.CustomResource | undefined>): pulumi.Output<T> {
  return value.apply(async (v) => {
    const r = await resource;
    return r ? r.urn.apply(() => v) : v;
  }) as unknown as pulumi.Output<T>;
}

/** Secret values shorter than this are not masked (masking "1" would mask every digit). */
const MIN_SECRET_CHARS = 4;

/**
 * The secret values (`pulumi.secret`) anywhere in an Input, as redaction patterns (escaped): the
 * trace's messages and log tails go to Diagnostics and to Pulumi Cloud. Unknown values (preview)
 * give nothing.
 */
export async function secretPatterns(input: unknown): Promise<RegExp[]> {
  const found = new Set<string>();
  await collectSecrets(input, false, found, 0);
  return [...found].filter((s) => s.length >= MIN_SECRET_CHARS).map((s) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'));
}

async function collectSecrets(value: unknown, secret: boolean, found: Set<string>, depth: number): Promise<void> {
  if (depth > 64 || value === null || value === undefined) return;
  if (pulumi.Output.isInstance(value)) {
    const out = value as unknown as OutputInternals<unknown>;
    if (!(await out.isKnown)) return;
    const isSecret = secret || (await out.isSecret) === true;
    return collectSecrets(await out.promise(), isSecret, found, depth + 1);
  }
  if (value instanceof Promise) return collectSecrets(await value, secret, found, depth + 1);
  if (typeof value === 'string' || typeof value === 'number') {
    if (secret) found.add(String(value));
    return;
  }
  if (typeof value === 'object') {
    for (const v of Object.values(value as Record<string, unknown>)) await collectSecrets(v, secret, found, depth + 1);
  }
}

type Args = { metadata?: pulumi.Input<Record<string, unknown>> } & Record<string, unknown>;

/**
 * Changes only `metadata.annotations` of Deployment args: the other metadata fields stay as
 * they were (known during preview when they are known), so the provider's dry run and its
 * replacement check keep working.
 */
export function withAnnotations<T>(args: T, change: (a: Record<string, unknown> | undefined) => Record<string, unknown>): T {
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
