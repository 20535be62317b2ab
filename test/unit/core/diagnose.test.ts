/** Diagnosis tables: every failure class, permanent vs transient pulls, parsing, hints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnoseDeployment, diagnoseReplicaSet } from '../../../src/core/diagnose/index.js';
import { classifyPull, diagnosePod, KIND_FACTS, parseMissing, probeHandler } from '../../../src/core/index.js';
import { availableTrue, deployment, event, NS, pod, progressing, replicaSet, running, terminatedLast, waiting } from './builders.js';

const NOW = Date.parse('2026-11-22T04:00:30Z');

describe('classifyPull', () => {
  const rows: Array<[string, string, 'permanent' | 'transient' | 'unknown']> = [
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:nope not found: manifest unknown: manifest unknown',
      'permanent',
    ],
    [
      'ErrImagePull',
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
      'permanent',
    ],
    [
      'ErrImagePull',
      "rpc error: code = Unknown desc = Error response from daemon: pull access denied for acme/nope, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
      'permanent',
    ],
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = failed to pull and unpack image "ghcr.io/acme/app:1": failed to authorize: 401 Unauthorized',
      'permanent',
    ],
    [
      'InvalidImageName',
      'Failed to apply default image tag "NGINX:": couldn\'t parse image reference "NGINX:": invalid reference format',
      'permanent',
    ],
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.invalid/v2/: dial tcp: lookup registry.invalid on 10.0.0.10:53: no such host',
      'transient',
    ],
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = Error response from daemon: Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)',
      'transient',
    ],
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = Error response from daemon: toomanyrequests: You have reached your pull rate limit.',
      'transient',
    ],
    [
      'ErrImagePull',
      'rpc error: code = Unknown desc = Error response from daemon: Get https://quay.io/v2/: net/http: TLS handshake timeout',
      'transient',
    ],
    ['ErrImagePull', 'failed to pull: unexpected status code 429 Too Many Requests', 'transient'],
    ['ErrImagePull', 'read tcp 10.0.0.5:40000->1.2.3.4:443: read: connection reset by peer', 'transient'],
    ['ImagePullBackOff', 'Back-off pulling image "nginx:nope"', 'unknown'],
  ];
  for (const [reason, message, kind] of rows) {
    it(`${kind}: ${message.slice(0, 70)}`, () => assert.equal(classifyPull(reason, message), kind));
  }
});

describe('diagnosePod', () => {
  it('ErrImagePull "not found" is image-pull-not-found with the image named', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      image: 'nginx:nope',
      containers: [
        waiting(
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:nope not found: manifest unknown: manifest unknown',
          { image: 'nginx:nope' },
        ),
      ],
    });
    const [problem, ...rest] = diagnosePod(p, [], NOW, { workload: { namespace: NS, name: 'web', facts: KIND_FACTS.Deployment } });
    assert.equal(rest.length, 0);
    assert.equal(problem?.class, 'image-pull-not-found');
    assert.equal(problem?.id, 'image-pull-not-found/Pod/web-2-abc/app');
    assert.equal(problem?.reason, 'ErrImagePull');
    assert.equal(problem?.explanation, 'image "nginx:nope" not found');
    assert.equal(problem?.firstSeen, NOW);
    assert.ok(problem?.hints.includes(`kubectl -n ${NS} describe pod web-2-abc`));
    assert.ok(problem?.hints.includes(`kubectl -n ${NS} rollout undo deployment/web`));
    assert.ok(!problem?.hints.some((h) => h.includes(' logs ')), 'a container that never started has no logs to suggest');
  });

  it("ImagePullBackOff is classified from the pod's Failed pull event", () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"', { image: 'nginx:nope' })],
    });
    const failed = event({
      kind: 'Pod',
      name: 'web-2-abc',
      reason: 'Failed',
      message:
        'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
    });
    const [problem] = diagnosePod(p, [failed], NOW);
    assert.equal(problem?.class, 'image-pull-not-found');
    assert.equal(problem?.reason, 'ImagePullBackOff');
    assert.equal(problem?.events[0]?.reason, 'Failed');
  });

  it('keeps up to 5 distinct warning events: repeats and `Error: <Reason>` echoes do not crowd them out', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"', { image: 'nginx:nope' })],
    });
    const detail =
      'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = failed to resolve reference "docker.io/library/nginx:nope": not found';
    const evs = [
      ...[20, 19, 18, 17, 16, 15].map((at) =>
        event({ kind: 'Pod', name: 'web-2-abc', reason: 'Failed', message: 'Error: ErrImagePull', at }),
      ),
      ...[14, 13, 12].map((at) => event({ kind: 'Pod', name: 'web-2-abc', reason: 'Failed', message: detail, at })),
      event({ kind: 'Pod', name: 'web-2-abc', reason: 'BackOff', message: 'Back-off pulling image "nginx:nope"', at: 11 }),
      event({ kind: 'Pod', name: 'web-2-abc', reason: 'FailedMount', message: 'MountVolume.SetUp failed for volume "x"', at: 10 }),
      event({ kind: 'Pod', name: 'web-2-abc', reason: 'Failed', message: 'Error: ImagePullBackOff', at: 9 }),
    ];
    const [problem] = diagnosePod(p, evs, NOW);
    assert.deepEqual(
      problem?.events.map((e) => `${e.reason}: ${e.message}`),
      [`Failed: ${detail}`, 'BackOff: Back-off pulling image "nginx:nope"', 'FailedMount: MountVolume.SetUp failed for volume "x"'],
    );
    assert.equal(problem?.events[0]?.lastSeen, new Date(NOW - 30_000 + 14_000).toISOString());
  });

  it('keeps a lone `Error: <Reason>` echo when no detailed event of that reason is left', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"', { image: 'nginx:nope' })],
    });
    const [problem] = diagnosePod(
      p,
      [event({ kind: 'Pod', name: 'web-2-abc', reason: 'Failed', message: 'Error: ImagePullBackOff' })],
      NOW,
    );
    assert.deepEqual(
      problem?.events.map((e) => e.message),
      ['Error: ImagePullBackOff'],
    );
  });

  it('ImagePullBackOff without evidence is treated as transient (never fail fast on a guess)', () => {
    const p = pod({ name: 'web-2-abc', rs: 'web-2', containers: [waiting('ImagePullBackOff', 'Back-off pulling image "nginx:1.19"')] });
    assert.equal(diagnosePod(p, [], NOW)[0]?.class, 'image-pull-transient');
  });

  it('a dial/lookup failure is image-pull-transient', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [
        waiting(
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.invalid/v2/: dial tcp: lookup registry.invalid: no such host',
          { image: 'registry.invalid/app:1' },
        ),
      ],
    });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'image-pull-transient');
    assert.match(problem?.explanation ?? '', /registry or network error/);
  });

  it('CrashLoopBackOff reports exit code, restarts and the termination message', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [
        waiting('CrashLoopBackOff', 'back-off 20s restarting failed container=app pod=web-2-abc_apps(pod-web-2-abc)', {
          restarts: 2,
          last: terminatedLast(1, 'Error', 'boom'),
        }),
      ],
    });
    const [problem] = diagnosePod(p, [], NOW, { workload: { namespace: NS, name: 'web', facts: KIND_FACTS.Deployment } });
    assert.equal(problem?.class, 'crash-loop');
    assert.equal(problem?.exitCode, 1);
    assert.equal(problem?.restartCount, 2);
    assert.equal(problem?.terminationMessage, 'boom');
    assert.equal(problem?.explanation, 'container exited with code 1 ("boom"), 2 restarts');
    assert.equal(problem?.hints[0], `kubectl -n ${NS} logs web-2-abc -c app --previous`);
  });

  it('OOMKilled is its own class with the memory limit', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      memoryLimit: '64Mi',
      containers: [
        waiting('CrashLoopBackOff', 'back-off 10s restarting failed container=app', {
          restarts: 1,
          last: terminatedLast(137, 'OOMKilled'),
        }),
      ],
    });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'oom-killed');
    assert.equal(problem?.exitCode, 137);
    assert.equal(problem?.explanation, 'container was killed for running out of memory (limit 64Mi), 1 restart');
  });

  it('a container that crashed once and is Ready again has no problem', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [running('app', { restarts: 1, last: terminatedLast(1), startedAt: '2026-11-22T04:00:25Z' })],
    });
    assert.deepEqual(diagnosePod(p, [], NOW), []);
  });

  it('a container restarting repeatedly is crash-looping even while briefly running', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [running('app', { restarts: 3, last: terminatedLast(2), startedAt: '2026-11-22T04:00:28Z' })],
    });
    assert.equal(diagnosePod(p, [], NOW)[0]?.class, 'crash-loop');
  });

  it('readiness probe failing names the probe handler and failure count', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5, failureThreshold: 3 },
      containers: [running('app', { ready: false })],
    });
    const unhealthy = event({
      kind: 'Pod',
      name: 'web-2-abc',
      reason: 'Unhealthy',
      message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
      count: 4,
    });
    const [problem] = diagnosePod(p, [unhealthy], NOW);
    assert.equal(problem?.class, 'readiness-probe');
    assert.deepEqual(problem?.probe, { kind: 'readiness', handler: 'GET http://:8080/healthz', failures: 4 });
    assert.equal(
      problem?.explanation,
      'readiness probe GET http://:8080/healthz is failing (4 failures): HTTP probe failed with statuscode: 503',
    );
  });

  it('CreateContainerConfigError names the missing ConfigMap', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('CreateContainerConfigError', 'configmap "app-config" not found')],
    });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'config-error');
    assert.deepEqual(problem?.missing, { kind: 'ConfigMap', name: 'app-config' });
    assert.equal(problem?.explanation, 'ConfigMap "app-config" does not exist');
    assert.ok(!problem?.hints.some((h) => h.includes(' logs ')));
  });

  it('CreateContainerConfigError names a missing Secret key', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('CreateContainerConfigError', `couldn't find key DB_URL in Secret ${NS}/db`)],
    });
    const [problem] = diagnosePod(p, [], NOW);
    assert.deepEqual(problem?.missing, { kind: 'Secret', name: 'db', key: 'DB_URL' });
    assert.equal(problem?.explanation, 'key "DB_URL" is missing from Secret "db"');
  });

  it('"failed to sync configmap cache" is transient and not a problem', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('CreateContainerConfigError', 'failed to sync configmap cache: timed out waiting for the condition')],
    });
    assert.deepEqual(diagnosePod(p, [], NOW), []);
  });

  it('FailedMount names the volume and the missing source', () => {
    const p = pod({ name: 'web-2-abc', rs: 'web-2', containers: [waiting('ContainerCreating', undefined)] });
    const ev = event({
      kind: 'Pod',
      name: 'web-2-abc',
      reason: 'FailedMount',
      message: 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found',
      count: 3,
    });
    const [problem] = diagnosePod(p, [ev], NOW);
    assert.equal(problem?.class, 'mount-failed');
    assert.equal(problem?.explanation, 'volume "config" cannot be mounted: ConfigMap "app-config" does not exist');
    assert.deepEqual(problem?.missing, { kind: 'ConfigMap', name: 'app-config' });
  });

  it('init container failures are inspected (Pulumi never does)', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      initSpecs: [{ name: 'migrate', image: 'busybox:1.32' }],
      initContainers: [
        waiting('CrashLoopBackOff', 'back-off 10s restarting failed container=migrate', {
          name: 'migrate',
          restarts: 2,
          last: terminatedLast(3, 'Error', 'no database'),
        }),
      ],
      containers: [waiting('PodInitializing', undefined)],
    });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'init-container');
    assert.equal(problem?.initContainer, true);
    assert.equal(problem?.container, 'migrate');
    assert.equal(problem?.explanation, 'init container exited with code 3 ("no database"), 2 restarts');
  });

  it('Unschedulable carries the scheduler message; a scale-up event marks autoscaling', () => {
    const msg = '0/1 nodes are available: 1 Insufficient cpu.';
    const p = pod({ name: 'web-2-abc', rs: 'web-2', scheduled: { status: 'False', reason: 'Unschedulable', message: msg } });
    const [problem] = diagnosePod(p, [event({ kind: 'Pod', name: 'web-2-abc', reason: 'FailedScheduling', message: msg })], NOW);
    assert.equal(problem?.class, 'unschedulable');
    assert.equal(problem?.explanation, `no node can run the pod: ${msg}`);
    assert.equal(problem?.autoscaling, undefined);
    const scaleUp = event({
      kind: 'Pod',
      name: 'web-2-abc',
      reason: 'TriggeredScaleUp',
      type: 'Normal',
      message: 'pod triggered scale-up: [{pool 1->2 (max: 5)}]',
      at: 6,
    });
    assert.equal(diagnosePod(p, [scaleUp], NOW)[0]?.autoscaling, true);
  });

  it('a healthy ready pod has no problems', () => {
    assert.deepEqual(diagnosePod(pod({ name: 'web-2-abc', rs: 'web-2' }), [], NOW), []);
  });
});

describe('workload diagnosis', () => {
  it('ReplicaFailure / FailedCreate (quota) is replica-failure with the admission message', () => {
    const message = 'pods "web-2-x" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=0, limited: cpu=1';
    const rs = replicaSet({ name: 'web-2', revision: '2', ready: 0, statusReplicas: 0, failure: { reason: 'FailedCreate', message } });
    const f = diagnoseReplicaSet(rs, [
      event({ kind: 'ReplicaSet', name: 'web-2', reason: 'FailedCreate', message: `Error creating: ${message}` }),
    ]);
    assert.equal(f?.class, 'replica-failure');
    assert.equal(f?.explanation, `pods cannot be created: Error creating: ${message}`);
  });

  it('ProgressDeadlineExceeded is progress-deadline', () => {
    const d = deployment({ revision: '2', conditions: [availableTrue, progressing('ProgressDeadlineExceeded', 'web-2', 'False')] });
    assert.equal(diagnoseDeployment(d)?.class, 'progress-deadline');
  });
});

describe('parsers', () => {
  it('probeHandler formats http, exec and tcp handlers', () => {
    assert.equal(probeHandler({ httpGet: { path: '/healthz', port: 8080 } }), 'GET http://:8080/healthz');
    assert.equal(probeHandler({ exec: { command: ['cat', '/tmp/ready'] } }), 'exec [cat /tmp/ready]');
    assert.equal(probeHandler({ tcpSocket: { port: 5432 } }), 'tcp :5432');
  });
  it('parseMissing reads secret and PVC messages', () => {
    assert.deepEqual(parseMissing('secret "db" not found'), { kind: 'Secret', name: 'db' });
    assert.deepEqual(parseMissing('persistentvolumeclaim "data" not found'), { kind: 'PersistentVolumeClaim', name: 'data' });
    assert.deepEqual(parseMissing(`couldn't find key url in ConfigMap ${NS}/cfg`), { kind: 'ConfigMap', name: 'cfg', key: 'url' });
  });
});

describe('PVC waits', () => {
  it('"unbound immediate PersistentVolumeClaims" is pvc-pending, not unschedulable', () => {
    const msg = 'pod has unbound immediate PersistentVolumeClaims (repeated 2 times)';
    const p = pod({ name: 'web-2-abc', rs: 'web-2', scheduled: { status: 'False', reason: 'Unschedulable', message: msg } });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'pvc-pending');
    assert.equal(problem?.id, 'pvc-pending/Pod/web-2-abc');
  });
  it('a missing PVC named by the scheduler is unschedulable with the claim named', () => {
    const msg = 'persistentvolumeclaim "data" not found';
    const p = pod({ name: 'web-2-abc', rs: 'web-2', scheduled: { status: 'False', reason: 'Unschedulable', message: msg } });
    const [problem] = diagnosePod(p, [], NOW);
    assert.equal(problem?.class, 'unschedulable');
    assert.deepEqual(problem?.missing, { kind: 'PersistentVolumeClaim', name: 'data' });
    assert.equal(problem?.explanation, 'pod cannot be scheduled: PersistentVolumeClaim "data" does not exist');
  });
});

describe('hints and liveness', async () => {
  const { kubectlHints } = await import('../../../src/core/index.js');
  it('kubectlHints covers logs --previous, describe, events, rollout status/undo', () => {
    assert.deepEqual(
      kubectlHints(
        { namespace: 'apps', name: 'web', facts: KIND_FACTS.Deployment },
        { kind: 'Pod', name: 'web-1-a', container: 'app', crashed: true },
      ),
      [
        'kubectl -n apps logs web-1-a -c app --previous',
        'kubectl -n apps describe pod web-1-a',
        'kubectl -n apps get events --field-selector involvedObject.name=web-1-a',
        'kubectl -n apps rollout status deployment/web',
        'kubectl -n apps rollout undo deployment/web',
      ],
    );
    assert.deepEqual(
      kubectlHints({ namespace: 'apps', name: 'web', facts: KIND_FACTS.Deployment }, { kind: 'ReplicaSet', name: 'web-1' }).slice(0, 1),
      ['kubectl -n apps describe rs web-1'],
    );
    assert.deepEqual(
      kubectlHints({ namespace: 'apps', name: 'web', facts: KIND_FACTS.Deployment }, { kind: 'Deployment', name: 'web', deleted: true }),
      ['kubectl -n apps get deployment web', 'kubectl -n apps get events --field-selector involvedObject.name=web'],
    );
  });
  it('a liveness-probe restart loop carries the probe on the crash-loop problem', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('CrashLoopBackOff', 'back-off 10s', { restarts: 2, last: terminatedLast(137, 'Error') })],
    });
    p.spec!.containers[0]!.livenessProbe = { tcpSocket: { port: 5432 } };
    const ev = event({
      kind: 'Pod',
      name: 'web-2-abc',
      reason: 'Unhealthy',
      message: 'Liveness probe failed: dial tcp 10.0.0.5:5432: connect: connection refused',
      count: 6,
    });
    const [problem] = diagnosePod(p, [ev], NOW);
    assert.equal(problem?.class, 'crash-loop');
    assert.deepEqual(problem?.probe, { kind: 'liveness', handler: 'tcp :5432', failures: 6 });
  });
});
