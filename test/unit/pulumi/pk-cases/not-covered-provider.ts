/**
 * pk's cases about what the provider decides and rollout-trace does not: its `pulumi.com/waitFor`
 * conditions and generic readiness (condition/*_test.go), its delete waits, and the replacements of
 * kinds we do not trace (provider/diff_test.go: Pods, claims, ConfigMaps, Secrets, a CRD).
 * Counted as not covered. Not counted at all: condition/all_test.go and observer_test.go (how
 * pk's conditions pass watch events along, with no outcome of a resource).
 */
import { uncoveredOf } from './case.js';

const C = 'provider/pkg/await/condition';

/** `waitFor: condition=...` cases. */
export const customConditionUncovered = uncoveredOf(
  'condition-custom',
  `${C}/custom_test.go`,
  "a `pulumi.com/waitFor: condition=...` wait is the provider's: rollout-trace leaves a user's waitFor to it",
  [
    [23, 'default True status not satisfied', 'not satisfied'],
    [40, 'default True status satisfied', 'satisfied'],
    [57, "default True status satisfied but condition's generation is too young", 'not satisfied'],
    [78, "default True status satisfied but status's generation is too young", 'not satisfied'],
    [99, 'custom status not satisfied', 'not satisfied'],
    [116, 'custom status satisfied', 'satisfied'],
    [133, 'condition status missing', 'not satisfied'],
    [149, 'condition missing', 'not satisfied'],
    [166, 'no conditions', 'not satisfied'],
  ],
);

/** `waitFor: jsonpath=...` cases. */
export const jsonPathUncovered = uncoveredOf(
  'condition-jsonpath',
  `${C}/jsonpath_test.go`,
  "a `pulumi.com/waitFor: jsonpath=...` wait is the provider's (the gate's own `jsonpath={.metadata.name}` relies on the observed-generation case)",
  [
    [26, 'missing key', 'not ready'],
    [32, 'key present', 'ready'],
    [40, 'key present but empty', 'ready'],
    [50, 'key present but null', 'ready'],
    [60, 'key present but observed generation is too young', 'not ready'],
    [74, 'key with matching value', 'ready'],
    [82, 'key with mismatched value', 'not ready'],
  ],
);

/** Generic readiness cases. */
export const readyConditionUncovered = uncoveredOf(
  'condition-ready',
  `${C}/ready_test.go`,
  'generic readiness of other kinds (claims, custom resources): rollout-trace does not trace them',
  [
    [23, 'PVC bound', 'ready'],
    [34, 'PVC unbound', 'not ready'],
    [45, 'missing status field is assumed to be ready', 'ready'],
    [53, 'status without conditions is assumed to be ready', 'ready'],
    [64, 'status with empty conditions is assumed to be ready', 'ready'],
    [75, 'status without ready condition is assumed to be ready', 'ready'],
    [89, "unknown ready condition isn't ready", 'not ready'],
    [103, 'non-standard ready status is assumed to be ready', 'ready'],
    [117, 'CRD progressing', 'not ready'],
    [135, 'CRD ready', 'ready'],
    [159, 'cert-manager progressing', 'not ready'],
    [173, 'cert-manager ready', 'ready'],
    [187, 'observed generation is too young', 'not ready'],
  ],
);

/** Delete-wait cases. */
export const deletedUncovered = uncoveredOf(
  'condition-deleted',
  `${C}/deleted_test.go`,
  "a delete wait is the provider's: rollout-trace decides no delete (the gate keeps the provider's wait)",
  [
    [112, 'already deleted', 'satisfied'],
    [129, 'deleted during watch', 'satisfied once deleted'],
    [159, 'issue-3317', 'satisfied'],
    [198, 'times out', 'not satisfied'],
    [214, 'times out with finalizers', 'not satisfied, finalizers named'],
    [237, 'times out with recovery', 'satisfied'],
    [252, 'unexpected error', 'not satisfied'],
  ],
);

const D = 'provider/pkg/provider/diff_test.go';
const NOT_A_WORKLOAD = 'a replacement of a kind rollout-trace does not trace (only workloads: plan.ts REPLACED_ON)';

/** `TestPatchToDiff`'s cases: replace, update or no change. */
export const diffUncovered = uncoveredOf('diff', D, NOT_A_WORKLOAD, [
  [47, 'Adding spec and nested field results in correct diffs. (PersistentVolumeClaim)', 'replace'],
  [56, 'Deleting spec and nested field results in correct diffs. (PersistentVolumeClaim)', 'replace'],
  [65, 'Changing image spec results in correct diff. (Pod)', 'replace'],
  [74, 'Group unspecified and changing image spec results in correct diff. (Pod)', 'replace'],
  [83, 'Changing image spec results in correct diff. (Pod, with a namespace)', 'replace'],
  [98, 'Changing second image spec results in correct diff. (Pod)', 'replace'],
  [123, 'Changing DNS policy and image spec results in correct diff. (Pod)', 'replace'],
  [139, 'Adding DNS policy results in correct diff. (Pod)', 'update'],
  [150, 'Changing DNS policy results in correct diff. (Pod)', 'update'],
  [163, 'Deleting DNS policy results in correct diff. (Pod)', 'update'],
  [174, 'State diffs with no corresponding input property are ignored. (Pod)', 'no change'],
  [189, 'State deletes with no corresponding input properties are ignored. (Pod)', 'no change'],
  [201, "PVC resources don't trigger a replace.", 'update'],
  [210, "ConfigMap resources don't trigger a replace when mutable.", 'update'],
  [222, 'ConfigMap resources trigger a replace when enableConfigMapMutable is not set.', 'replace'],
  [231, 'ConfigMap resources trigger a replace when marked as immutable even when enableConfigMapMutable is set.', 'replace'],
  [243, "Secret resources don't trigger a replace when mutable.", 'update'],
  [255, 'Secret resources trigger a replace when enableSecretMutable is not set.', 'replace'],
  [264, 'Secret resources trigger a replace when type changes even if enableSecretMutable is set.', 'replace'],
  [276, 'Secret resources trigger a replace when marked as immutable even if enableSecretMutable is set.', 'replace'],
  [288, 'Changing computed object values results in correct diff (Pod)', 'replace'],
  [298, 'Adding computed object values results in correct diff (Pod)', 'replace'],
  [308, 'Adding computed array values results in correct diff (Pod)', 'update'],
  [318, 'Changing computed array values results in correct diff (Pod)', 'update'],
  [328, 'Removing array values results in correct diff (Pod)', 'update'],
  [338, 'Removing a field that was nil should not panic (a tekton Pipeline)', 'update'],
]);
