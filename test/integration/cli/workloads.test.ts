/**
 * The CLI with StatefulSets, DaemonSets and Jobs, kubectl-style: `KIND/NAME` arguments of several
 * kinds in one call, `sts NAME`, `all -l SELECTOR` across kinds, an unknown kind (exit 2), and the
 * `kind` on every JSON line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { kubeconfigPath, withNamespace } from '../../helpers/cluster.js';
import { createDeployment } from '../../helpers/deployments.js';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { isOneParagraph, runCli } from './run-cli.js';

const SHOP = { labels: { app: 'x', 'app.kubernetes.io/part-of': 'shop' } };

describe('rollout-trace with StatefulSets, DaemonSets and Jobs', { concurrency: true }, () => {
  test('KIND/NAME of four kinds in one call: one verdict each, every JSON line with its kind, exit 0', async (t) => {
    const ns = await withNamespace(t, 'cli-kinds');
    await Promise.all([
      createDeployment(ns, 'web', { image: 'nginx:1.19' }),
      createStatefulSet(ns, 'db', { replicas: 2, image: 'postgres:13' }),
      createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' }),
      createJob(ns, 'migrate', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo migrated'] } }),
    ]);
    const args = ['sts/db', 'deploy/web', 'ds/agent', 'job/migrate', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'json'];
    const run = await runCli(args);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { type: string; kind?: string; verdict?: { outcome: string; kind?: string; deployment: { name: string } } },
      );
    assert.ok(
      lines.every((l) => typeof l.kind === 'string'),
      'every line has a kind',
    );
    const verdicts = lines.filter((l) => l.type === 'verdict').map((l) => `${l.kind}/${l.verdict?.deployment.name} ${l.verdict?.outcome}`);
    assert.deepEqual(verdicts.sort(), [
      'DaemonSet/agent succeeded',
      'Deployment/web succeeded',
      'Job/migrate succeeded',
      'StatefulSet/db succeeded',
    ]);
  });

  test('sts NAME: an OnDelete update is blocked, exit 1, the summary says why', async (t) => {
    const ns = await withNamespace(t, 'cli-sts');
    const { editStatefulSet } = await import('../../helpers/workloads.js');
    await createStatefulSet(ns, 'db', { replicas: 1, image: 'postgres:13', updateStrategy: { type: 'OnDelete' } });
    const base = ['-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain'];
    assert.equal((await runCli(['sts', 'db', ...base])).code, 0, 'created and rolled out');
    await editStatefulSet(ns, 'db', (s) => {
      s.spec!.template.spec!.containers[0]!.image = 'postgres:14';
    });
    const run = await runCli(['statefulset', 'db', ...base]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /StatefulSet \S+\/db: FAILED - statefulset db: OnDelete update strategy: 1 of 1 pods still run the previous template/,
    );
  });

  test('all -l SELECTOR traces every kind it matches (named on stderr)', async (t) => {
    const ns = await withNamespace(t, 'cli-all');
    await Promise.all([
      createDeployment(ns, 'web', { labels: { ...SHOP.labels, app: 'web' } }),
      createStatefulSet(ns, 'db', { labels: { ...SHOP.labels, app: 'db' }, image: 'postgres:13' }),
      createDeployment(ns, 'other', {}),
    ]);
    const run = await runCli(['all', '-l', 'app.kubernetes.io/part-of=shop', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(
      run.stderr,
      `rollout-trace: -l app.kubernetes.io/part-of=shop selects 2 workloads in ${ns}: Deployment/web, StatefulSet/db\n`,
    );
    assert.match(run.stdout, /✔ StatefulSet \S+\/db: SUCCEEDED/);
    assert.match(run.stdout, /✔ Deployment \S+\/web: SUCCEEDED/);
  });

  test('an unknown kind is a one-paragraph usage error naming the valid kinds (exit 2)', async () => {
    const run = await runCli(['cronjob/nightly', 'deploy/web']);
    assert.equal(run.code, 2);
    assert.ok(isOneParagraph(run.stderr), run.stderr);
    assert.match(
      run.stderr,
      /unknown kind "cronjob" in "cronjob\/nightly"; valid kinds are deploy \(deployment\), sts \(statefulset\), ds \(daemonset\), job/,
    );
  });
});
