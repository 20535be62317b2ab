/**
 * Fault suite on the shared cluster: credentials that lack a resource a StatefulSet, DaemonSet or
 * Job trace reads. Without list/watch on the kind itself or on events: exit 3 with one paragraph
 * naming the verb, the resource, the namespace and the Role rule (with the resource's API group)
 * that allows it, as for Deployments. Without persistentvolumeclaims, and without nodes (a
 * namespaced Role cannot grant them): the rollout is traced to its verdict, with one line saying
 * that pods on a NotReady node are not diagnosed, as for Deployments.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { V1PolicyRule } from '@kubernetes/client-node';
import { withNamespace } from '../helpers/cluster.js';
import { expectError, expectVerdict, figure, outputOf, traceCli } from '../helpers/faults.js';
import { READ, serviceAccountKubeConfig } from '../helpers/rbac.js';
import { FAULT_KINDS, type FaultKind, kindArgs } from '../helpers/workload-faults.js';
import { isOneParagraph } from '../integration/cli/run-cli.js';

/** Every resource a trace of any kind reads, by API group. */
const READ_BY_GROUP: Record<string, string[]> = {
  apps: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'],
  batch: ['jobs'],
  '': ['pods', 'events', 'persistentvolumeclaims'],
};

/** Read access to all of READ_BY_GROUP and pods/log, minus `list`/`watch` on `resource` (only `get`). */
function rulesWithout(resource: string): V1PolicyRule[] {
  const rules = Object.entries(READ_BY_GROUP)
    .map(([group, resources]) => ({
      apiGroups: [group],
      resources: resources.filter((r) => r !== resource),
      verbs: READ,
    }))
    .filter((rule) => rule.resources.length > 0);
  const group = Object.keys(READ_BY_GROUP).find((g) => READ_BY_GROUP[g]!.includes(resource))!;
  return [
    ...rules,
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    { apiGroups: [group], resources: [resource], verbs: ['get'] },
  ];
}

/** The CLI args for `k` in `ns` with a ServiceAccount kubeconfig whose Role lacks list/watch on `resource`. */
async function argsWithout(k: FaultKind, ns: string, resource: string): Promise<string[]> {
  const kc = await serviceAccountKubeConfig(ns, `no-${resource}`, rulesWithout(resource));
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rt-rbac-')), 'kubeconfig');
  writeFileSync(file, kc.exportConfig(), { mode: 0o600 });
  const args = kindArgs(k, ns, '--timeout', '90s');
  args[args.indexOf('--kubeconfig') + 1] = file;
  return args;
}

describe('fault: RBAC on StatefulSets, DaemonSets and Jobs', { concurrency: true }, () => {
  for (const k of FAULT_KINDS) {
    for (const resource of [k.resource, 'events']) {
      it(`${k.kind}: no list on ${resource}: exit 3 with one paragraph naming the verb, resource, namespace and group`, async (t) => {
        const ns = await withNamespace(t, `fault-rbac-${k.arg}-${resource}`);
        await k.create(ns);
        const run = await traceCli(await argsWithout(k, ns, resource));
        figure(t, `RBAC without list on ${resource} (${k.kind})`, run);
        expectError(run, { code: 3, message: new RegExp(`may not list ${resource} in namespace "${ns}"`) });
        const group = resource === 'events' ? '' : k.group;
        assert.ok(
          run.stderr.includes(`{apiGroups: ["${group}"], resources: ["${resource}"]`),
          `the rule names group "${group}"\n${outputOf(run)}`,
        );
        assert.ok(isOneParagraph(run.stderr), outputOf(run));
      });
    }

    it(`${k.kind}: no persistentvolumeclaims and no nodes: traced to SUCCEEDED, one line saying nodes are not readable`, async (t) => {
      const ns = await withNamespace(t, `fault-rbac-${k.arg}-optional`);
      await k.create(ns);
      const run = await traceCli(await argsWithout(k, ns, 'persistentvolumeclaims'));
      figure(t, `RBAC without persistentvolumeclaims and nodes (${k.kind})`, run);
      expectVerdict(run, { code: 0, verdict: new RegExp(`${k.kind} \\S+/${k.name}: SUCCEEDED`) });
      const said = `${run.stdout}${run.stderr}`.match(/may not list and watch nodes/g) ?? [];
      assert.equal(said.length, 1, `one line says nodes are not readable\n${outputOf(run)}`);
    });
  }
});
