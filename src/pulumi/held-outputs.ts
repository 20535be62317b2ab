/**
 * Gate mode keeps every wait a program already has on a gated workload.
 *
 * Without rollout-trace the provider's await holds the workload's step, and with it every output
 * of the resource: its URN, which `dependsOn: [workload]` and `dependsOn: [component]` wait for
 * (the SDK turns a component into its custom children and waits for their URNs, sdk
 * runtime/dependsOn.ts `getAllTransitivelyReferencedResourceURNs`), and every property read from
 * it (a resource whose args use `workload.metadata.name` waits for the workload's URN as a
 * property dependency, sdk runtime/resource.ts `prepareResource`; an `apply` on it runs once the
 * step ended). The gate's `pulumi.com/waitFor` ends the step at the write, so the outputs are held
 * here until the gate opens instead: they resolve once the rollout succeeded (or the trace ended
 * without failing the gate), and reject with the gate's own error when it failed, so no dependent
 * is written and the failure is reported once (the language host reports an error object once).
 *
 * The SDK sets a resource's outputs by assignment while it prepares the registration (`urn`, `id`,
 * then one per input property, `transferProperties`, which refuses a property the object already
 * owns). So the accessors are installed on a prototype of this resource alone, between it and its
 * class, before the registration: each assignment keeps the SDK's output for the trace
 * ({@link unheld}) and the program reads the held one.
 */
import * as pulumi from '@pulumi/pulumi';

type AnyOutput = pulumi.Output<unknown>;

/** The SDK's own outputs of each held resource, by property name. */
const unheldOutputs = new WeakMap<object, Map<string, AnyOutput>>();

/**
 * Holds `resource`'s outputs (`urn`, `id` and one per key of `props`) until `gateOpen` settles.
 * Call it from a transformation of the resource, before the SDK registers it.
 */
export function holdOutputs(resource: pulumi.Resource, props: unknown, gateOpen: Promise<unknown>): void {
  if (unheldOutputs.has(resource)) return;
  const keys = new Set(['urn', 'id', ...(props && typeof props === 'object' && !isOutput(props) ? Object.keys(props) : [])]);
  const sdk = new Map<string, AnyOutput>();
  const held = new Map<string, unknown>();
  const layer = Object.create(Object.getPrototypeOf(resource)) as object;
  for (const key of keys) {
    Object.defineProperty(layer, key, {
      configurable: true,
      get: () => held.get(key),
      set: (value: unknown) => {
        if (!isOutput(value)) {
          held.set(key, value);
          return;
        }
        sdk.set(key, value);
        held.set(key, heldUntil(value, gateOpen));
      },
    });
  }
  Object.setPrototypeOf(resource, layer);
  unheldOutputs.set(resource, sdk);
}

/**
 * The output the SDK gave `resource` for `key`, not held: what the trace itself reads (the
 * provider's write, the step's end). The resource's own property when it is not held.
 */
export function unheld<T>(resource: pulumi.Resource, key: string): pulumi.Output<T> {
  const own = unheldOutputs.get(resource)?.get(key);
  return (own ?? (resource as unknown as Record<string, unknown>)[key]) as pulumi.Output<T>;
}

/**
 * The gate's error, its message kept as it is: the SDK prefixes the message of an error that
 * fails a dependent's property (`error serializing property "data": ...`, sdk runtime/rpc.ts
 * `serializeResourceProperties`) and rethrows the same object, which the language host reports
 * once, with whatever message it then has. A held output must not reword the gate's verdict.
 */
export function keepingItsMessage(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const message = err.message;
  Object.defineProperty(err, 'message', { configurable: true, enumerable: false, get: () => message, set: () => undefined });
  return err;
}

/** `value`, resolved once `gateOpen` resolves; rejected with its error when it rejects. */
function heldUntil(value: AnyOutput, gateOpen: Promise<unknown>): AnyOutput {
  return value.apply(async (v) => {
    await gateOpen;
    return v;
  });
}

function isOutput(value: unknown): value is AnyOutput {
  return pulumi.Output.isInstance(value);
}
