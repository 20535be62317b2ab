/**
 * The CLI end to end: the real executable against the embedded control plane (simulated kubelet),
 * checking output formats and exit codes.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppsV1Api, type V1Deployment } from '@kubernetes/client-node';
import { clients, kubeConfig, kubeconfigPath, waitUntil, withNamespace } from '../../helpers/cluster.js';
import { deploymentOf, editDeployment } from '../../helpers/deployments.js';
import { isOneParagraph, runCli } from './run-cli.js';

/** {@link deploymentOf} with these tests' positional shorthand. */
const deployment = (name: string, image: string, annotations: Record<string, string> = {}, replicas = 2) =>
  deploymentOf(name, { image, annotations, replicas });

async function create(namespace: string, d: V1Deployment): Promise<void> {
  await kubeConfig().makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace, body: d });
}

// Sequential: each test starts a CLI process, and a loaded machine makes parallel start-ups slow.
describe('rollout-trace CLI', () => {
  test('success: plain lines prefixed namespace/name, no repeats, success block, exit 0', async (t) => {
    const ns = await withNamespace(t, 'cli-ok');
    await create(ns, deployment('web', 'nginx:1.15-alpine'));
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    const lines = run.stdout.trimEnd().split('\n');
    const eventLines = lines.filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    assert.ok(eventLines.length >= 3, run.stdout);
    for (const l of eventLines) assert.ok(l.startsWith(`${l.slice(0, 8)} ${ns}/web `), l);
    const bodies = eventLines.map((l) => l.slice(9));
    assert.equal(new Set(bodies).size, bodies.length, `a line repeats:\n${run.stdout}`);
    assert.match(run.stdout, new RegExp(`✔ Deployment ${ns}/web: SUCCEEDED - revision 1 rolled out: 2/2 pods ready`));
    assert.match(lines.at(-1)!, /^ {2}revision 1 · 2\/2 ready · 2 updated · 2 available · took /);
    assert.doesNotMatch(run.stdout, /\u001b\[/, 'no colours in a pipe');
  });

  test('broken image: JSON lines with schemaVersion 1, failed verdict naming the pod and class, exit 1 within seconds', async (t) => {
    const ns = await withNamespace(t, 'cli-broken');
    await create(ns, deployment('api', 'nginx:nonexistent', {}, 1));
    const run = await runCli(['deploy', 'api', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'json']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const objects = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { schemaVersion: number; type: string; time: string; deployment: { name: string } });
    for (const o of objects) {
      assert.equal(o.schemaVersion, 1);
      assert.equal(o.deployment.name, 'api');
      assert.ok(!Number.isNaN(Date.parse(o.time)));
    }
    assert.equal(objects[0]!.type, 'started');
    const last = objects.at(-1) as unknown as {
      type: string;
      verdict: {
        outcome: string;
        startedAt: number;
        finishedAt: number;
        problems: { class: string; object: { kind: string; name: string }; container?: string }[];
      };
    };
    assert.equal(last.type, 'verdict');
    assert.equal(last.verdict.outcome, 'failed');
    const p = last.verdict.problems[0]!;
    assert.equal(p.class, 'image-pull-not-found');
    assert.equal(p.object.kind, 'Pod');
    assert.match(p.object.name, /^api-/);
    assert.equal(p.container, 'app');
    assert.ok(objects.some((o) => o.type === 'problem'));
    // Detection time as the tracker measured it (process start-up is excluded: it varies with load).
    const detectMs = last.verdict.finishedAt - last.verdict.startedAt;
    assert.ok(detectMs < 30_000, `verdict after ${detectMs} ms`);
  });

  test('broken image in GitHub Actions: ::error annotation and folded failure details', async (t) => {
    const ns = await withNamespace(t, 'cli-gha');
    await create(ns, deployment('api', 'nginx:1.99-does-not-exist', {}, 1));
    const run = await runCli(['deploy', 'api', '-n', ns, '--kubeconfig', kubeconfigPath()], {
      env: { GITHUB_ACTIONS: 'true', CI: 'true' },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`^::error title=Deployment ${ns}/api FAILED::pod api-`, 'm'));
    const group = /^::group::.*failure details\n([\s\S]*?)\n::endgroup::$/m.exec(run.stdout);
    assert.ok(group, run.stdout);
    assert.match(group[1]!, /✖ Deployment .*: FAILED/);
    assert.match(group[1]!, /nginx:1\.99-does-not-exist/);
    assert.match(group[1]!, new RegExp(`kubectl -n ${ns} describe pod api-`));
  });

  test('timeout: --timeout 8s on a slow-starting pod exits 70 with a TIMED OUT summary', async (t) => {
    const ns = await withNamespace(t, 'cli-timeout');
    await create(ns, deployment('slow', 'nginx:1.15-alpine', { 'sim.rollout-trace.dev/app': 'slow-start;seconds=600' }, 1));
    // The deadline bounds the first contact too: on a loaded machine a few seconds can pass before
    // the apiserver's first answer (that run ends "Cannot reach ... within", exit 3).
    const run = await runCli(['deploy', 'slow', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--timeout', '8s']);
    assert.equal(run.code, 70, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`✖ Deployment ${ns}/slow: TIMED OUT \\(after 8s\\)`));
    const took = Number(/took (\d+(?:\.\d+)?)s/.exec(run.stdout)?.[1]);
    assert.ok(took >= 8 && took < 20, `took ${took}s:\n${run.stdout}`);
  });

  test('--no-progress-timeout 5s on a pod stuck in ContainerCreating exits 70 naming the no-progress deadline', async (t) => {
    const ns = await withNamespace(t, 'cli-noprogress');
    await create(ns, deployment('stuck', 'nginx:1.15-alpine', { 'sim.rollout-trace.dev/app': 'slow-start;seconds=60' }, 1));
    // The overall deadline is far away: only the no-progress one can end this run.
    const run = await runCli([
      'deploy',
      'stuck',
      '-n',
      ns,
      '--kubeconfig',
      kubeconfigPath(),
      '-o',
      'plain',
      '--timeout',
      '50s',
      '--no-progress-timeout',
      '5s',
    ]);
    assert.equal(run.code, 70, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`✖ Deployment ${ns}/stuck: TIMED OUT \\(no progress for 5s\\) - no progress for 5s waiting for revision 1`),
    );
    assert.doesNotMatch(run.stdout, /TIMED OUT \(after/);
    assert.match(run.stdout, /container-creating/);
    const took = Number(/took (\d+(?:\.\d+)?)s/.exec(run.stdout)?.[1]);
    assert.ok(took >= 5 && took < 40, `took ${took}s:\n${run.stdout}`);
  });

  test('broken image in GitLab CI: the failure details folded in a collapsed section under the summary', async (t) => {
    const ns = await withNamespace(t, 'cli-gitlab');
    await create(ns, deployment('api', 'nginx:1.99-does-not-exist', {}, 1));
    const run = await runCli(['deploy', 'api', '-n', ns, '--kubeconfig', kubeconfigPath()], { env: { GITLAB_CI: 'true', CI: 'true' } });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const section = new RegExp(
      `^\\u001b\\[0Ksection_start:(\\d+):rollout-trace\\.${ns}\\.api\\[collapsed=true\\]\\r\\u001b\\[0K[^\\n]*✖ Deployment ${ns}/api: FAILED - pod api-[^\\n]*\\n` +
        `([\\s\\S]*?)\\n\\u001b\\[0Ksection_end:(\\d+):rollout-trace\\.${ns}\\.api\\r\\u001b\\[0K$`,
      'm',
    );
    const m = section.exec(run.stdout);
    assert.ok(m, JSON.stringify(run.stdout));
    assert.ok(Math.abs(Number(m[1]) - Date.now() / 1000) < 120, `section timestamp ${m[1]} is not the current unix time`);
    assert.match(m[2]!, /nginx:1\.99-does-not-exist/);
    assert.match(m[2]!, new RegExp(`kubectl -n ${ns} describe pod api-`));
    assert.doesNotMatch(run.stdout, /::(error|group)/);
  });

  test("--follow-logs: the new pods' log lines stream into the CI log before the verdict, redacted", async (t) => {
    const ns = await withNamespace(t, 'cli-follow-logs');
    const d = deployment(
      'api',
      'nginx:1.19',
      { 'sim.rollout-trace.dev/app': 'crash;not-ready;after=3;logs=DB_PASSWORD=hunter2|login as hunter7|ERROR db unreachable' },
      1,
    );
    d.spec!.template.spec!.containers[0]!.readinessProbe = { httpGet: { path: '/ready', port: 80 }, periodSeconds: 1 };
    await create(ns, d);
    const run = await runCli([
      'deploy',
      'api',
      '-n',
      ns,
      '--kubeconfig',
      kubeconfigPath(),
      '-o',
      'plain',
      '--follow-logs',
      '--redact',
      'hunter\\d',
      // A loaded machine may start the trace after the first crash, when the container waits in
      // back-off: a 30 s window leaves time to stream a later run's lines before the verdict.
      '--fail-after',
      'crash-loop=30',
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const verdictAt = run.stdout.indexOf('FAILED');
    const before = run.stdout.slice(0, verdictAt);
    assert.match(before, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${ns}/api log api-[a-z0-9]+-[a-z0-9]+/app \\| ERROR db unreachable$`, 'm'));
    assert.match(before, / log api-\S+\/app \| DB_PASSWORD=\*\*\*$/m);
    assert.match(before, / log api-\S+\/app \| login as \*\*\*$/m);
    assert.doesNotMatch(run.stdout, /hunter\d/, "no secret in the stream nor in the failure summary's log tail");
  });

  test('--watch-for keeps tracing after the verdict: a killed pod is shown deleted and replaced', async (t) => {
    const ns = await withNamespace(t, 'cli-watch');
    await create(ns, deployment('web', 'nginx:1.15-alpine', {}, 1));
    const first = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain']);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const { CoreV1Api } = await import('@kubernetes/client-node');
    const core = kubeConfig().makeApiClient(CoreV1Api);
    const victim = (await core.listNamespacedPod({ namespace: ns })).items[0]!.metadata!.name!;
    let killing: Promise<unknown> | undefined;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--watch-for', '15s'], {
      onStderr: (err) => {
        // Kill the pod once the follower has listed (it says so on stderr).
        if (!killing && err.includes('watching for changes')) {
          killing = Promise.resolve().then(() => core.deleteNamespacedPod({ name: victim, namespace: ns }));
        }
      },
    });
    assert.ok(killing, run.stdout + run.stderr);
    await killing;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const verdictAt = run.stdout.indexOf('SUCCEEDED');
    assert.ok(verdictAt > 0);
    const after = run.stdout.slice(verdictAt);
    assert.equal(run.stderr, 'rollout-trace: watching for changes for 15s\n');
    assert.match(after, new RegExp(`pod ${victim} deleted`));
    assert.match(after, new RegExp(`pod (?!${victim})web-[a-z0-9-]+ \\(revision 1\\): ready`));
  });

  test('--watch-for follows a later broken rollout: the new revision, the pull failure and its Warning event', async (t) => {
    const ns = await withNamespace(t, 'cli-watch-broken');
    await create(ns, deployment('web', 'nginx:1.15-alpine', {}, 1));
    let updating: Promise<unknown> | undefined;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--watch-for', '25s'], {
      onStderr: (err) => {
        if (!updating && err.includes('watching for changes')) {
          updating = Promise.resolve().then(async () => {
            await editDeployment(ns, 'web', (live) => {
              live.spec!.template.spec!.containers[0]!.image = 'nginx:1.99-does-not-exist';
            });
          });
        }
      },
    });
    assert.ok(updating, run.stdout + run.stderr);
    await updating;
    assert.equal(run.code, 0, `the first verdict decides the exit code\n${run.stdout}${run.stderr}`);
    const after = run.stdout.slice(run.stdout.indexOf('SUCCEEDED'));
    assert.match(after, /new revision 2 \(was 1\): rollout started/);
    assert.match(after, /pod web-[a-z0-9-]+ \(revision 2\): waiting - (ErrImagePull|ImagePullBackOff)/);
    assert.match(after, /event \[Pod\/web-[a-z0-9-]+\] Failed: .*nginx:1\.99-does-not-exist/);
    assert.equal(after.match(/SUCCEEDED|FAILED/g)?.length, 1, `no second verdict\n${after}`);
  });

  test("--watch-for -o json: after the verdict, the core reducer's own events (pod transitions with previous), no second verdict", async (t) => {
    const ns = await withNamespace(t, 'cli-watch-json');
    await create(ns, deployment('web', 'nginx:1.15-alpine', {}, 1));
    const { CoreV1Api } = await import('@kubernetes/client-node');
    const core = kubeConfig().makeApiClient(CoreV1Api);
    let killing: Promise<string> | undefined;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'json', '--watch-for', '15s'], {
      onStderr: (err) => {
        if (!killing && err.includes('watching for changes')) {
          killing = Promise.resolve().then(async () => {
            const victim = (await core.listNamespacedPod({ namespace: ns })).items[0]!.metadata!.name!;
            await core.deleteNamespacedPod({ name: victim, namespace: ns });
            return victim;
          });
        }
      },
    });
    assert.ok(killing, run.stdout + run.stderr);
    const victim = await killing;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    type Line = { type: string; name?: string; state?: string; previous?: string; desired?: number; role?: string };
    const objects = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const verdictIndex = objects.findIndex((o) => o.type === 'verdict');
    const after = objects.slice(verdictIndex + 1);
    assert.deepEqual(
      after.filter((o) => o.type === 'verdict' || o.type === 'started'),
      [],
      'the follower never re-judges nor restarts',
    );
    assert.ok(
      after.some((o) => o.type === 'pod-deleted' && o.name === victim),
      run.stdout,
    );
    const replacement = after.filter((o) => o.type === 'pod' && o.name !== victim);
    assert.ok(
      replacement.some((o) => o.state === 'ready' && o.previous !== undefined && o.previous !== 'ready'),
      run.stdout,
    );
    for (const rs of after.filter((o) => o.type === 'replicaset')) assert.equal(rs.desired, 1, JSON.stringify(rs));
  });

  test('--watch until Ctrl-C: the watch after the verdict ends at once, with the exit code of the verdict', async (t) => {
    const ns = await withNamespace(t, 'cli-watch-int');
    await create(ns, deployment('web', 'nginx:1.15-alpine', {}, 1));
    let interruptedAt: number | undefined;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--watch'], {
      onStderr: (err, child) => {
        if (interruptedAt === undefined && err.includes('watching for changes until Ctrl-C')) {
          interruptedAt = Date.now();
          child.kill('SIGINT');
        }
      },
      timeoutMs: 60_000,
    });
    assert.ok(interruptedAt !== undefined, run.stdout + run.stderr);
    const exitedAfter = Date.now() - interruptedAt;
    assert.equal(run.code, 0, `a succeeded verdict, then Ctrl-C: exit 0\n${run.stdout}${run.stderr}`);
    assert.equal(run.stdout.match(/SUCCEEDED|CANCELLED/g)?.join(), 'SUCCEEDED', run.stdout);
    // Ctrl-C ends the watch: the CLI exits by itself, promptly, not at the kill timeout of runCli.
    assert.ok(exitedAfter < 10_000, `exited ${exitedAfter} ms after SIGINT`);
  });

  test('Ctrl-C during a rollout: a CANCELLED summary and exit 130, promptly', async (t) => {
    const ns = await withNamespace(t, 'cli-sigint');
    await create(ns, deployment('slow', 'nginx:1.15-alpine', { 'sim.rollout-trace.dev/app': 'slow-start;seconds=600' }, 1));
    let interrupted = false;
    const run = await runCli(['deploy', 'slow', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain'], {
      onStdout: (out, child) => {
        if (!interrupted && /revision 1/.test(out)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(run.code, 130, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`◼ Deployment ${ns}/slow: CANCELLED`));
  });

  test('bad usage exits 2 with one paragraph and no stack trace', async () => {
    for (const args of [
      ['deploy', 'web', '--timeout', 'banana'],
      ['deploy', 'web', '--frobnicate'],
      ['deploy'],
      ['deploy', 'web', '--fail-after', 'nope=3'],
      ['deploy', 'web', '-o', 'yaml'],
      ['deploy', 'web', '--min-generation', '0'],
      ['deploy', 'web', '--success', '150%'],
      ['deploy', 'web', '--no-progress-timeout', '0s'],
      ['deploy', 'web', '--follow-logs', '--redact', '('],
    ]) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.ok(isOneParagraph(run.stderr), run.stderr);
      assert.match(run.stderr, /^rollout-trace: /);
    }
  });

  test("a bad name or namespace exits 2 with the tracker's own paragraph", async () => {
    const cases: [string[], RegExp][] = [
      [['deploy', 'Bad_Name'], /^rollout-trace: name "Bad_Name" is not a valid Deployment name: it must be a DNS-1123 subdomain/],
      [
        ['deploy', 'web', '-n', 'has.dot'],
        /^rollout-trace: namespace "has\.dot" is not a valid namespace name: it must be a DNS-1123 label/,
      ],
      [['deploy', 'web', '-n', 'a'.repeat(64)], /is not a valid namespace name: it must be a DNS-1123 label \(at most 63/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.ok(isOneParagraph(run.stderr), run.stderr);
      assert.match(run.stderr, message);
    }
  });

  test('--success 1 --ignore replica-failure: a quota holding the ReplicaSet to 1 of 3 pods still succeeds; the default fails', async (t) => {
    const ns = await withNamespace(t, 'cli-partial');
    await clients().core.createNamespacedResourceQuota({
      namespace: ns,
      body: { metadata: { name: 'one-pod' }, spec: { hard: { pods: '1' } } },
    });
    // Admission enforces a quota only once the quota controller has computed its usage.
    await waitUntil(async () => (await clients().core.readNamespacedResourceQuota({ name: 'one-pod', namespace: ns })).status?.used, {
      what: 'quota usage computed',
      timeoutMs: 20_000,
    });
    await create(ns, deployment('web', 'nginx:1.15-alpine', {}, 3));
    const args = ['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--timeout', '60s'];
    const partial = await runCli([...args, '--success', '1', '--ignore', 'replica-failure']);
    assert.equal(partial.code, 0, partial.stdout + partial.stderr);
    assert.match(partial.stdout, new RegExp(`✔ Deployment ${ns}/web: SUCCEEDED - revision 1 rolled out: 1/3 pods ready`));
    assert.doesNotMatch(partial.stdout, /problem: ReplicaSet/, 'an ignored class is not reported');
    const full = await runCli(args);
    assert.equal(full.code, 1, full.stdout + full.stderr);
    assert.match(full.stdout, /FAILED - replicaset web-\w+: [^\n]*\(FailedCreate\)/);
    assert.match(full.stdout, /exceeded quota: one-pod/);
  });

  test('--tolerate crash-loop=2: two crashing pods of two are tolerated (timeout, exit 70), the problem line says so', async (t) => {
    const ns = await withNamespace(t, 'cli-tolerate');
    const d = deployment('api', 'busybox:1.32', { 'sim.rollout-trace.dev/app': 'crash;exitCode=3;after=1' }, 2);
    // Without a probe a container is Ready the moment it starts, and the rollout would succeed
    // before the first crash; this one becomes ready only after 120 s.
    d.spec!.template.spec!.containers[0]!.readinessProbe = { httpGet: { path: '/ready', port: 80 }, initialDelaySeconds: 120 };
    await create(ns, d);
    const run = await runCli([
      'deploy',
      'api',
      '-n',
      ns,
      '--kubeconfig',
      kubeconfigPath(),
      '-o',
      'plain',
      '--timeout',
      '30s',
      '--tolerate',
      'crash-loop=2',
    ]);
    assert.equal(run.code, 70, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /problem: Pod\/api-\S+ container app: .*; (fails the rollout if it persists 10s|persisted past its 10s window: fails the rollout) on more than 2 pods\n/,
    );
    assert.match(run.stdout, new RegExp(`✖ Deployment ${ns}/api: TIMED OUT \\(after 30s\\)`));
    assert.doesNotMatch(run.stdout, /: FAILED/);
  });

  test('three pods missing the same ConfigMap volume: one whole problem and warning, the others "same as"', async (t) => {
    const ns = await withNamespace(t, 'cli-same-as');
    const d = deployment('web', 'nginx:1.15-alpine', {}, 3);
    d.spec!.template.spec!.volumes = [{ name: 'config', configMap: { name: 'web-config' } }];
    d.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'config', mountPath: '/etc/web' }];
    await create(ns, d);
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const live = run.stdout.slice(0, run.stdout.indexOf('✖'));
    const problems = live.split('\n').filter((l) => / problem: Pod\//.test(l));
    const podOf = (l: string) => /problem: Pod\/(web-\S+?):/.exec(l)![1]!;
    assert.equal(new Set(problems.map(podOf)).size, 3, live);
    const whole = new Set(
      problems.filter((l) => /volume "config" cannot be mounted: ConfigMap "web-config" does not exist/.test(l)).map(podOf),
    );
    assert.equal(whole.size, 1, live);
    const [first] = [...whole];
    assert.equal(new Set(problems.filter((l) => l.endsWith(`: same as Pod/${first}`)).map(podOf)).size, 2, live);
    const mounts = live.split('\n').filter((l) => / event \[Pod\/web-\S+\] FailedMount: /.test(l));
    assert.equal(mounts.filter((l) => /configmap "web-config" not found/.test(l)).length, 1, live);
    assert.ok(
      mounts.slice(1).every((l) => /FailedMount: same as \[Pod\/web-\S+\]$/.test(l)),
      live,
    );
    assert.match(run.stdout, /also on {6}Pod\/web-\S+, Pod\/web-\S+/, 'the summary still names every pod');
  });

  test('-l SELECTOR traces every matching Deployment (names on stderr); no match exits 3, a bad selector 2', async (t) => {
    const ns = await withNamespace(t, 'cli-selector');
    const labelled = (name: string, tier: string) => {
      const d = deployment(name, 'nginx:1.15-alpine', {}, 1);
      d.metadata!.labels = { ...d.metadata!.labels, tier };
      return d;
    };
    await create(ns, labelled('web', 'front'));
    await create(ns, labelled('api', 'front'));
    await create(ns, labelled('db', 'back'));
    const base = ['deploy', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain'];
    const run = await runCli([...base, '-l', 'tier=front']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, `rollout-trace: -l tier=front selects 2 Deployments in ${ns}: api, web\n`);
    assert.match(run.stdout, new RegExp(`✔ Deployment ${ns}/web: SUCCEEDED`));
    assert.match(run.stdout, new RegExp(`✔ Deployment ${ns}/api: SUCCEEDED`));
    assert.doesNotMatch(run.stdout, new RegExp(`${ns}/db`));
    const none = await runCli([...base, '-l', 'tier=nothing']);
    assert.equal(none.code, 3, none.stdout + none.stderr);
    assert.match(
      none.stderr,
      new RegExp(
        `^rollout-trace: No Deployment in namespace "${ns}" .* matches the label selector "tier=nothing"\\. See their labels with: kubectl -n ${ns} get deployments --show-labels\n$`,
      ),
    );
    const bad = await runCli([...base, '-l', 'tier==front==x']);
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /^rollout-trace: The label selector "tier==front==x" is not valid: .+ Write it as kubectl does: /);
    assert.ok(isOneParagraph(bad.stderr), bad.stderr);
  });

  test('an unknown Deployment exits 3 with a paragraph listing what exists', async (t) => {
    const ns = await withNamespace(t, 'cli-missing');
    await create(ns, deployment('real', 'nginx:1.15-alpine', {}, 1));
    const run = await runCli(['deploy', 'typo', '-n', ns, '--kubeconfig', kubeconfigPath(), '--wait-for-creation', '1s']);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.ok(isOneParagraph(run.stderr), run.stderr);
    assert.match(run.stderr, /Deployment "typo" was not found/);
    assert.match(run.stderr, /"real"/);
  });

  test('a missing kubeconfig file exits 3 with one paragraph', async () => {
    const run = await runCli(['deploy', 'web', '--kubeconfig', '/nonexistent/kubeconfig']);
    assert.equal(run.code, 3, run.stderr);
    assert.ok(isOneParagraph(run.stderr), run.stderr);
    assert.match(run.stderr, /\/nonexistent\/kubeconfig/);
  });

  test('--help prints usage with examples and exits 0', async () => {
    const run = await runCli(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage:\n {2}rollout-trace KIND NAME \[NAME\.\.\.\] \[flags\] +KIND: deploy, sts, ds or job/m);
    assert.match(run.stdout, /Examples:\n {2}rollout-trace deploy nginx -n web/);
    assert.match(run.stdout, /^ {6}--no-progress-timeout DURATION\n {28}give up when the rollout shows no progress/m);
    assert.match(run.stdout, /^ {2}GITLAB_CI=true {12}fold failure details in a collapsed job-log section$/m);
  });
});
