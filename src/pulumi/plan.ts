/**
 * What a Pulumi program *declared* for one Deployment, read from its resolved inputs.
 *
 * The tracer must start before the kubernetes provider returns (its outputs, even the URN, resolve
 * only after the provider's await), so everything it needs comes from the inputs: the name or the
 * auto-name prefix, the namespace, the selector, the planned pod template and the annotations.
 */

import { KIND_BY_OMISSION, type WorkloadKind } from '../core/index.js';

/** The parts of a workload's declared inputs the tracer uses (named for the first kind it traced). */
export interface PlannedDeployment {
  /** The workload's kind: from the resource type (`Deployment` unless said otherwise). */
  kind: WorkloadKind;
  /** `metadata.name` when the program set it. */
  name?: string;
  /**
   * The Pulumi resource name. Without `metadata.name` the provider names the object
   * `<namePrefix>-<8 random chars>` and annotates it `pulumi.com/autonamed: "true"`.
   */
  namePrefix: string;
  /**
   * `metadata.generateName` when the program set it and no name: the apiserver names the object
   * `<generateName><5 random chars>` on create (the provider's client-side apply mode only).
   */
  generateName?: string;
  /** `metadata.namespace` when set (else the provider's namespace, the context's, or `default`). */
  namespace?: string;
  selector?: Record<string, string>;
  replicas?: number;
  /** A Job's `spec.completions` when set. */
  completions?: number;
  /**
   * The declared values of the spec fields whose change makes the provider replace the object
   * (besides the selector and the template; {@link REPLACED_ON}): only those the program sets.
   */
  replacedOn?: Record<string, unknown>;
  /** A StatefulSet's declared `spec.updateStrategy` (its type and `rollingUpdate.partition`). */
  updateStrategy?: { type?: string; partition?: number };
  /** A Job's `spec.ttlSecondsAfterFinished` when set: the TTL controller deletes it that long after it finished. */
  ttlSecondsAfterFinished?: number;
  /** The planned `spec.template` as declared (no server defaults). */
  template?: Record<string, unknown>;
  annotations: Record<string, string>;
  /** `pulumi.com/skipAwait: "true"`: the provider does not wait, so the gate must. */
  skipAwait: boolean;
  /**
   * `pulumi.com/timeoutSeconds`, the provider's own await timeout, when set to a positive integer
   * as Go's `strconv.Atoi` reads it ({@link goAtoi}); any other text makes pk use its default.
   */
  timeoutSeconds?: number;
  /** `pulumi.com/waitFor`: the provider waits for this condition instead of its Deployment await. */
  waitFor?: string;
}

/** Annotation that makes the kubernetes provider return without awaiting readiness. */
export const SKIP_AWAIT = 'pulumi.com/skipAwait';
/** Annotation that replaces the provider's built-in await with a condition (pk >= 4.18.4). */
export const WAIT_FOR = 'pulumi.com/waitFor';
/** Annotation holding the provider's await timeout in seconds. */
export const TIMEOUT_SECONDS = 'pulumi.com/timeoutSeconds';
/** Annotation the provider puts on objects it auto-named. */
export const AUTONAMED = 'pulumi.com/autonamed';

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : undefined;
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(value) ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * The spec fields, besides the selector and the pod template, whose change makes the kubernetes
 * provider replace the object (pk provider/pkg/provider/diff.go `forceNew`: a StatefulSet's
 * `podManagementPolicy`, `revisionHistoryLimit`, `serviceName`, `volumeClaimTemplates`; a Job's
 * `completions`, `parallelism`, and its `template`, handled with the template changes).
 */
export const REPLACED_ON: Partial<Record<WorkloadKind, readonly string[]>> = {
  StatefulSet: ['podManagementPolicy', 'revisionHistoryLimit', 'serviceName', 'volumeClaimTemplates'],
  Job: ['completions', 'parallelism'],
};

/**
 * Reads the plan from a workload's resolved inputs (`{ metadata, spec }` as passed to
 * `new k8s.apps.v1.Deployment(name, args)`, with Outputs already unwrapped). `kind`: the
 * component's `kind` argument, which names a Deployment when left out.
 */
export function planFromInputs(resourceName: string, inputs: unknown, asked?: WorkloadKind): PlannedDeployment {
  const kind = asked ?? KIND_BY_OMISSION;
  const root = asObject(inputs) ?? {};
  const metadata = asObject(root.metadata) ?? {};
  const spec = asObject(root.spec) ?? {};
  const annotations = stringMap(metadata.annotations);
  const timeout = goAtoi(annotations[TIMEOUT_SECONDS] ?? '');
  const selector = asObject(asObject(spec.selector)?.matchLabels);
  return {
    kind,
    name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : undefined,
    namePrefix: resourceName,
    generateName: typeof metadata.generateName === 'string' && metadata.generateName !== '' ? metadata.generateName : undefined,
    namespace: typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined,
    selector: selector ? stringMap(selector) : undefined,
    replicas: typeof spec.replicas === 'number' ? spec.replicas : undefined,
    completions: typeof spec.completions === 'number' ? spec.completions : undefined,
    replacedOn: Object.fromEntries(
      (REPLACED_ON[kind] ?? []).filter((f) => spec[f] !== undefined && spec[f] !== null).map((f) => [f, spec[f]]),
    ),
    updateStrategy: strategyOf(spec.updateStrategy),
    ttlSecondsAfterFinished: typeof spec.ttlSecondsAfterFinished === 'number' ? spec.ttlSecondsAfterFinished : undefined,
    template: asObject(spec.template),
    annotations,
    skipAwait: annotations[SKIP_AWAIT] === 'true',
    timeoutSeconds: timeout !== undefined && timeout > 0 ? timeout : undefined,
    // pk ReadyCondition (metadata/overrides.go L112-113): an empty waitFor is no waitFor.
    waitFor: annotations[WAIT_FOR] || undefined,
  };
}

function strategyOf(value: unknown): PlannedDeployment['updateStrategy'] {
  const s = asObject(value);
  if (!s) return undefined;
  const partition = asObject(s.rollingUpdate)?.partition;
  return { type: typeof s.type === 'string' ? s.type : undefined, partition: typeof partition === 'number' ? partition : undefined };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The integer Go's `strconv.Atoi` reads from `text` (64-bit `int`), or undefined where it returns an
 * error: an optional sign then ASCII digits only, nothing else (no spaces, no unit, no fraction, no
 * underscores, which only base 0 accepts), within the int range. pk reads `pulumi.com/timeoutSeconds`
 * with it (metadata/overrides.go L57-62) and uses its default on an error, so `"600s"`, `"1.5"` and
 * `" 60"` mean 10 minutes there, not 600 or 1 or 60.
 */
export function goAtoi(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : Number(value);
}

/** True when `name` is what the provider's auto-naming would produce from `prefix`. */
export function isAutoNameOf(prefix: string, name: string): boolean {
  if (!name.startsWith(`${prefix}-`)) return false;
  return /^[a-z0-9]{8}$/.test(name.slice(prefix.length + 1));
}
