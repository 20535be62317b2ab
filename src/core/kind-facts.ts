/**
 * What a workload kind's facts say (the type; each kind's entry is in kinds/facts.ts): the shared
 * code below the kind modules reads them from the state (`RolloutState.facts`), never by a lookup.
 */
import type { WatchedKind, WorkloadKind } from './types.js';

/**
 * The options whose meaning depends on the kind. A trace of a kind for which a feature has no
 * meaning refuses it (a `bad-input` error, exit 2 in the CLI) with the kind's sentence, never
 * ignores it.
 */
export type KindFeature =
  /** `success: { mode: 'percent' }` (`--success 75%`): a share of the desired pods. */
  | 'success-percent'
  /** `success: { mode: 'pods' }` (`--success 2`): a number of pods. */
  | 'success-pods'
  /** `success: { mode: 'maxUnavailable' }`: the kind's own rolling-update `maxUnavailable`. */
  | 'success-max-unavailable'
  /** `settleSeconds` (`--settle`): success waits until a pod that recovered stayed Ready this long. */
  | 'settle'
  /** `baselineRevision`: the revision before the change being traced. */
  | 'baseline-revision'
  /** `logs.onSuccess` (`--logs-on-success`): the log tails of a success. */
  | 'logs-on-success'
  /** `--pulumi-messages`: Pulumi's own await messages in the failure summary. */
  | 'pulumi-messages';

/** Every {@link KindFeature}, in the order the feature × kind table documents them. */
export const KIND_FEATURES: readonly KindFeature[] = [
  'success-percent',
  'success-pods',
  'success-max-unavailable',
  'settle',
  'baseline-revision',
  'logs-on-success',
  'pulumi-messages',
];

/** One kind's facts. */
export interface KindFacts {
  kind: WorkloadKind;
  /** kubectl's short name (`deploy`, `sts`, `ds`, `job`): keys of the sinks, `kubectl` hints. */
  short: string;
  /** Every spelling kubectl accepts for the kind (short, singular, plural, with the API group). */
  spellings: readonly string[];
  /** API group and version (`apps/v1`, `batch/v1`). */
  apiVersion: string;
  /** Plural lower-case resource, as in RBAC rules and API paths. */
  resource: string;
  /** The Pulumi resource types of the kind (the `*Patch` type is observed only). */
  pulumiTypes: readonly string[];
  /**
   * The kinds a trace of this kind lists and watches in the namespace, besides the kind itself,
   * Pods and Events (always) and PersistentVolumeClaims (when its pods mount claims). A Deployment's
   * pods belong to its ReplicaSets; the other kinds own their pods.
   */
  ownedVia: readonly WatchedKind[];
  /** What a pod counts as in the kind's own words (`ready`, `succeeded`). */
  podsDone: string;
  /** What a verdict says of the workload once it succeeded (`rolled out`, `complete`). */
  done: string;
  /** Whether kubectl's `rollout status`, `rollout undo` and `rollout resume` apply to it. */
  rollsOut: boolean;
  /** What its desired count counts: `replicas`, `nodes` (one pod on each eligible node), `completions`. */
  per: 'replicas' | 'nodes' | 'completions';
  /**
   * Per feature: `true` when it works for the kind, else the sentence that says why it has no
   * meaning (completing "… is refused for a Job: <sentence>").
   */
  features: Readonly<Record<KindFeature, true | string>>;
}
