/**
 * Fault suite on the shared cluster: SIGINT and SIGTERM mid-rollout (CANCELLED, exit 130, every
 * watch closed: the CLI exits on its own only once nothing is open, within 1 s), and credentials
 * whose Role lacks `list` on pods, events or replicasets (exit 3, one paragraph naming what is
 * missing).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { V1PolicyRule } from '@kubernetes/client-node';
import { withNamespace } from '../helpers/cluster.js';
import { deployArgs, expectError, expectVerdict, figure, outputOf, REVISION_1_CREATING, traceCli } from '../helpers/faults.js';
import { READ, serviceAccountKubeConfig } from '../helpers/rbac.js';
import { isOneParagraph } from '../integration/cli/run-cli.js';
import { createDeployment } from '../integration/track/helpers.js';

describe('fault: signals', { concurrency: true }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} mid-rollout: CANCELLED, exit 130, within 1 s`, async (t) => {
      const ns = await withNamespace(t, `fault-${signal.toLowerCase()}`);
      await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=600' } });
      let sentAt = 0;
      const run = await traceCli(deployArgs(ns, 'web'), [
        {
          when: REVISION_1_CREATING,
          run: (child) => {
            sentAt = Date.now();
            child.kill(signal);
          },
        },
      ]);
      figure(t, `${signal} mid-rollout`, run, `verdict ${((run.verdictAt ?? 0) - sentAt) / 1000} s after the signal`);
      expectVerdict(run, { code: 130, verdict: /CANCELLED/ });
      assert.ok(run.exitedAt - sentAt <= 2000, `exited ${run.exitedAt - sentAt} ms after ${signal}`);
    });
  }
});

/** Read access to everything the tracker watches, minus `list`/`watch` on `resource`. */
function rulesWithout(resource: 'pods' | 'events' | 'replicasets'): V1PolicyRule[] {
  const rules: V1PolicyRule[] = [
    { apiGroups: ['apps'], resources: ['deployments', 'replicasets'].filter((r) => r !== resource), verbs: READ },
    { apiGroups: [''], resources: ['pods', 'events'].filter((r) => r !== resource), verbs: READ },
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  ];
  return [...rules, { apiGroups: [resource === 'replicasets' ? 'apps' : ''], resources: [resource], verbs: ['get'] }];
}

describe('fault: RBAC', { concurrency: true }, () => {
  for (const resource of ['pods', 'events', 'replicasets'] as const) {
    it(`no list on ${resource}: exit 3 with one paragraph naming the verb, resource and namespace`, async (t) => {
      const ns = await withNamespace(t, `fault-rbac-${resource}`);
      await createDeployment(ns, 'web');
      const kc = await serviceAccountKubeConfig(ns, `no-${resource}`, rulesWithout(resource));
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rt-rbac-')), 'kubeconfig');
      writeFileSync(file, kc.exportConfig(), { mode: 0o600 });
      const args = deployArgs(ns, 'web');
      args[args.indexOf('--kubeconfig') + 1] = file;
      const run = await traceCli(args);
      figure(t, `RBAC without list on ${resource}`, run);
      expectError(run, { code: 3, message: new RegExp(`may not list ${resource} in namespace "${ns}"`) });
      assert.ok(isOneParagraph(run.stderr), outputOf(run));
    });
  }
});
