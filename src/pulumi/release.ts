/**
 * A `helm.v3.Release`'s workloads (pure): the provider runs helm itself and registers no resource
 * per object, so its objects are recognised by the marks helm writes on everything it installs
 * (helm pkg/action/validate.go `setMetadataVisitor`: the label `app.kubernetes.io/managed-by:
 * Helm` and the annotation `meta.helm.sh/release-name`), and its writes by uid and generation.
 */
import type { WorkloadKind } from '../core/index.js';

/** The Pulumi type of a Helm release. */
export const RELEASE_TYPE = 'kubernetes:helm.sh/v3:Release';
/** The label selector of every object helm installed. */
export const HELM_MANAGED_SELECTOR = 'app.kubernetes.io/managed-by=Helm';
/** The annotation naming the release an object belongs to. */
export const RELEASE_NAME_ANNOTATION = 'meta.helm.sh/release-name';

/** What the program declares of a release. */
export interface ReleasePlan {
  /** The Pulumi resource name: the release is named `<resourceName>-<8 hex>` when `name` is not set. */
  resourceName: string;
  /** The `name` input, when set. */
  name?: string;
  /** The `namespace` input, when set (else the provider's). */
  namespace?: string;
  /** `skipAwait`: helm does not wait for the workloads. */
  skipAwait: boolean;
}

/** A workload of the release as listed. */
export interface ReleaseWorkload {
  kind: WorkloadKind;
  name: string;
  uid?: string;
  generation?: number;
  /** Its `meta.helm.sh/release-name`. */
  release?: string;
}

/** A workload the update wrote: new (another uid), or a newer generation of one that lived. */
export interface ReleaseWrite {
  workload: ReleaseWorkload;
  /** The generation its controller must have observed (undefined for a new object). */
  minGeneration?: number;
}

/** Reads the plan from the release's resolved inputs. */
export function releasePlanFromInputs(resourceName: string, inputs: unknown): ReleasePlan {
  const i = (inputs && typeof inputs === 'object' ? inputs : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { resourceName, name: text(i.name), namespace: text(i.namespace), skipAwait: i.skipAwait === true };
}

/**
 * Whether `release` (an object's release-name annotation) is the declared release: its `name`,
 * else the provider's auto-name `<resourceName>-` and 8 hex digits (pk helm_release.go
 * `assignNameIfAutonameable`, resource.NewUniqueHex).
 */
export function isTheRelease(plan: ReleasePlan, release: string | undefined): boolean {
  if (release === undefined) return false;
  if (plan.name !== undefined) return release === plan.name;
  return release.startsWith(`${plan.resourceName}-`) && /^[0-9a-f]{8}$/.test(release.slice(plan.resourceName.length + 1));
}

/** The workloads the update wrote, from the release's workloads before it and now. */
export function releaseWrites(before: readonly ReleaseWorkload[], now: readonly ReleaseWorkload[]): ReleaseWrite[] {
  const key = (w: ReleaseWorkload) => `${w.kind}/${w.name}`;
  const old = new Map(before.map((w) => [key(w), w]));
  const writes: ReleaseWrite[] = [];
  for (const w of now) {
    const was = old.get(key(w));
    if (!was || was.uid !== w.uid) writes.push({ workload: w });
    else if ((w.generation ?? 0) > (was.generation ?? 0)) writes.push({ workload: w, minGeneration: (was.generation ?? 0) + 1 });
  }
  return writes;
}

/** The release's name as known before the update: declared, the live one, or its naming pattern. */
export function releaseName(plan: ReleasePlan, live: readonly ReleaseWorkload[]): string {
  return plan.name ?? live.find((w) => w.release)?.release ?? `${plan.resourceName}-<random>`;
}

/** The preview's line: which of the release's workloads live now, and that the update traces them. */
export function releasePreviewLine(plan: ReleasePlan, namespace: string, live: readonly (ReleaseWorkload & { state: string })[]): string {
  const which = `helm Release ${namespace}/${releaseName(plan, live)}`;
  if (live.length === 0) return `preview: ${which} has no workload yet; the update traces those helm installs (observe mode)`;
  const list = live.map((w) => `${w.kind} ${w.name} (${w.state})`).join(', ');
  return `preview: ${which}: the update traces the workloads helm writes (observe mode); live: ${list}`;
}
