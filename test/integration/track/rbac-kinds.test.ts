/**
 * The minimal Role of each kind (docs/security.md, "Minimal RBAC"): a ServiceAccount granted
 * exactly that Role traces a rollout of the kind to success. A trace that listed or watched a kind
 * it does not need (Deployments and ReplicaSets for a StatefulSet) would be refused instead, so
 * each row also proves what is not watched. The Roles are written out here as in the docs, not
 * derived from the code.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1PolicyRule } from '@kubernetes/client-node';
import type { TrackOptions } from '../../../src/track/index.js';
import { trackRollout } from '../../../src/track/index.js';
import { READ, serviceAccountKubeConfig } from '../../helpers/rbac.js';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { createDeployment, namespaceFor } from './helpers.js';

/** What every kind's Role holds besides the kind: its pods, Events and pod logs. */
const PODS: V1PolicyRule[] = [
  { apiGroups: [''], resources: ['pods', 'events'], verbs: READ },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
];

const ROWS: Array<{
  kind: NonNullable<TrackOptions['kind']>;
  name: string;
  rules: V1PolicyRule[];
  create: (ns: string) => Promise<unknown>;
}> = [
  {
    kind: 'Deployment',
    name: 'web',
    rules: [{ apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ }, ...PODS],
    create: (ns) => createDeployment(ns, 'web', { replicas: 2 }),
  },
  {
    kind: 'StatefulSet',
    name: 'db',
    rules: [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: READ }, ...PODS],
    create: (ns) => createStatefulSet(ns, 'db', { replicas: 2, podManagementPolicy: 'Parallel' }),
  },
  {
    kind: 'DaemonSet',
    name: 'agent',
    rules: [{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: READ }, ...PODS],
    create: (ns) => createDaemonSet(ns, 'agent'),
  },
  {
    kind: 'Job',
    name: 'migrate',
    rules: [{ apiGroups: ['batch'], resources: ['jobs'], verbs: READ }, ...PODS],
    create: (ns) => createJob(ns, 'migrate', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo migrated'] } }),
  },
];

describe("each kind's minimal Role", { concurrency: true }, () => {
  for (const row of ROWS) {
    it(`${row.kind}: a Role with only ${row.rules[0]?.resources?.join(', ')}, pods, events and pods/log traces it to success`, async (t) => {
      const ns = await namespaceFor(t, `rbac-${row.name}`);
      // Another kind's workload in the same namespace: none of it is read.
      if (row.kind !== 'Deployment') await createDeployment(ns, 'other', { replicas: 1 });
      await row.create(ns);
      const kc = await serviceAccountKubeConfig(ns, 'tracker', row.rules);
      const tracking = trackRollout({ name: row.name, kind: row.kind, kubeconfig: kc, timeoutSeconds: 120 });
      const v = await tracking.verdict;
      t.diagnostic(v.summary);
      assert.equal(v.outcome, 'succeeded', v.summary);
      assert.equal(v.kind ?? 'Deployment', row.kind);
    });
  }
});
