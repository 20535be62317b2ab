/**
 * The pure parts of the Pulumi integration: reading the plan from declared inputs, deciding
 * whether a planned template starts a rollout, and the one-line status texts.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RolloutEvent } from '../../src/core/types.js';
import { isAutoNameOf, planFromInputs } from '../../src/pulumi/plan.js';
import { StatusLines, statusLine } from '../../src/pulumi/status-lines.js';
import { describeChange, templateChanges } from '../../src/pulumi/template-diff.js';

const live = {
  metadata: { labels: { app: 'web' }, creationTimestamp: null },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.19',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m' } },
        terminationMessagePath: '/dev/termination-log',
      },
    ],
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
  },
};

test('a plan equal to the live template (server defaults aside) is no rollout', () => {
  const planned = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.19', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m' } } }] },
  };
  assert.deepEqual(templateChanges(planned, live), []);
});

test('image, env, added/removed containers and labels are rollouts', () => {
  const base = () =>
    structuredClone({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.19' }] } });
  const image = base();
  image.spec.containers[0]!.image = 'nginx:1.20';
  assert.deepEqual(templateChanges(image, live).map(describeChange), ['spec.containers[web].image: "nginx:1.19" → "nginx:1.20"']);
  const env = base() as any;
  env.spec.containers[0].env = [{ name: 'A', value: '1' }];
  assert.equal(templateChanges(env, live)[0]?.path, 'spec.containers[web].env');
  const sidecar = base() as any;
  sidecar.spec.containers.push({ name: 'log', image: 'busybox' });
  assert.equal(templateChanges(sidecar, live)[0]?.path, 'spec.containers');
  const label = base() as any;
  label.metadata.labels.tier = 'front';
  assert.equal(templateChanges(label, live)[0]?.path, 'metadata.labels.tier');
});

test('plan: name, auto-name prefix, namespace, skipAwait and timeout annotations', () => {
  const plan = planFromInputs('web', {
    metadata: { namespace: 'shop', annotations: { 'pulumi.com/skipAwait': 'true', 'pulumi.com/timeoutSeconds': '90' } },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { spec: {} } },
  });
  assert.equal(plan.name, undefined);
  assert.equal(plan.namePrefix, 'web');
  assert.equal(plan.namespace, 'shop');
  assert.equal(plan.skipAwait, true);
  assert.equal(plan.timeoutSeconds, 90);
  assert.deepEqual(plan.selector, { app: 'web' });
  assert.equal(planFromInputs('web', { metadata: { name: 'web-x', annotations: { 'pulumi.com/skipAwait': 'True' } } }).skipAwait, false);
  assert.ok(isAutoNameOf('web', 'web-1a2b3c4d'));
  assert.ok(!isAutoNameOf('web', 'web-api-1a2b3c4d'));
  assert.ok(!isAutoNameOf('web', 'webx-1a2b3c4d'));
});

test("status lines are single lines in the CI log's words; normal events are left out; problems warn with the deadline", () => {
  const base = { at: 10_000, deployment: { namespace: 'ns', name: 'web' } };
  const e = (x: object) => ({ ...base, ...x }) as RolloutEvent;
  assert.deepEqual(statusLine(e({ type: 'started' })), { severity: 'info', text: 'tracing Deployment ns/web' });
  assert.equal(
    statusLine(e({ type: 'replicaset', name: 'web-1', revision: '1', role: 'old', desired: 1, ready: 3, available: 3, created: false }))
      ?.text,
    'ReplicaSet web-1 (old, revision 1): 3 ready, scaling down to 1, 3 available',
  );
  assert.equal(
    statusLine(e({ type: 'pod', name: 'p', revision: '2', state: 'ready', previous: 'running' }))?.text,
    'pod p (revision 2): ready',
  );
  assert.equal(
    statusLine(
      e({ type: 'k8s-event', event: { type: 'Normal', reason: 'Pulled', message: 'ok', object: 'Pod/p', count: 1, lastSeen: '' } }),
    ),
    undefined,
  );
  const warning = statusLine(
    e({ type: 'k8s-event', event: { type: 'Warning', reason: 'BackOff', message: 'a\nb', object: 'Pod/p', count: 4, lastSeen: '' } }),
  );
  assert.deepEqual(warning, { severity: 'warn', text: 'event [Pod/p] BackOff: a ⏎ b' });
  const problem = statusLine(
    e({
      type: 'problem',
      failsAt: 17_000,
      problem: {
        id: 'x',
        class: 'crash-loop',
        object: { kind: 'Pod', name: 'p' },
        reason: 'CrashLoopBackOff',
        message: '',
        explanation: 'container exited with code 1',
        firstSeen: 7_000,
        lastSeen: 10_000,
        events: [],
        hints: [],
      },
    }),
  );
  assert.deepEqual(problem, {
    severity: 'warn',
    text: 'problem: Pod/p: container exited with code 1; fails the rollout if it persists 10s',
  });
  assert.equal(statusLine(e({ type: 'verdict', verdict: {} })), undefined);
  assert.deepEqual(statusLine(e({ type: 'log', pod: 'web-2-a', container: 'app', line: 'DB_PASSWORD=***' })), {
    severity: 'info',
    text: 'log web-2-a/app | DB_PASSWORD=***',
  });
});

test('StatusLines: one line per real state change, like the CI log', () => {
  const lines = new StatusLines();
  const base = { at: 10_000, deployment: { namespace: 'ns', name: 'web' } };
  const e = (x: object) => ({ ...base, ...x }) as RolloutEvent;
  const waiting = (detail: string) => e({ type: 'pod', name: 'p', revision: '2', state: 'waiting', detail });
  const said = [
    waiting('ErrImagePull'),
    waiting('ImagePullBackOff'),
    waiting('ErrImagePull'),
    waiting('ImagePullBackOff'),
    e({ type: 'replicaset', name: 'web-2', revision: '2', role: 'new', desired: 2, ready: 1, available: 1, created: false }),
    e({
      type: 'progress',
      message: 'Waiting for app ReplicaSet to be available (1/2 Pods available)',
      ready: 1,
      desired: 2,
      updated: 2,
      available: 1,
    }),
    e({ type: 'replicaset', name: 'web-1', revision: '1', role: 'old', desired: 0, ready: 0, available: 0, created: true }),
  ]
    .map((x) => lines.next(x)?.text)
    .filter((t) => t !== undefined);
  assert.deepEqual(said, [
    'pod p (revision 2): waiting - ErrImagePull',
    'pod p (revision 2): waiting - ImagePullBackOff',
    'ReplicaSet web-2 (new, revision 2): 1/2 ready, 1 available',
  ]);
});

test('secrets never print: env / args / command / volumes values and secret-derived templates', async () => {
  const { settle } = await import('../../src/pulumi/outputs.js');
  const pulumi = await import('@pulumi/pulumi');
  const withEnv = (value: string) => ({
    spec: { containers: [{ name: 'app', image: 'nginx:1.19', env: [{ name: 'DB_PASSWORD', value }], args: ['--token', value] }] },
  });
  const lines = templateChanges(withEnv('new-password'), withEnv('old-password')).map(describeChange);
  assert.deepEqual(lines, ['spec.containers[app].env[DB_PASSWORD].value changed', 'spec.containers[app].args[1] changed']);
  // A whole env list added or removed is printed as a path too (its objects hold the values).
  const grown = templateChanges(
    {
      spec: {
        containers: [
          {
            name: 'app',
            env: [
              { name: 'A', value: 'a' },
              { name: 'B', value: 'new-password' },
            ],
          },
        ],
      },
    },
    withEnv('x'),
  );
  assert.deepEqual(grown.map(describeChange), ['spec.containers[app].env changed']);

  // The image itself is a Pulumi secret here: settle says so and the change prints as [secret].
  const settled = await settle(pulumi.output({ spec: { containers: [{ name: 'app', image: pulumi.secret('registry/app:secret-tag') }] } }));
  assert.ok(settled.known && settled.secret);
  const plain = await settle({ spec: { containers: [{ name: 'app', image: 'nginx:1.20' }] } });
  assert.ok(plain.known && !plain.secret);
  const secretLines = templateChanges(settled.known ? settled.value : undefined, withEnv('x'), {
    secret: settled.known && settled.secret,
  }).map(describeChange);
  assert.deepEqual(secretLines, ['spec.containers[app].image changed [secret]']);
  for (const line of [...lines, ...secretLines]) assert.doesNotMatch(line, /password|secret-tag/);
  // Scalars outside credential fields still show both values.
  assert.deepEqual(
    templateChanges(withEnv('x'), { spec: { containers: [{ ...withEnv('x').spec.containers[0], image: 'nginx:1.18' }] } }).map(
      describeChange,
    ),
    ['spec.containers[app].image: "nginx:1.18" → "nginx:1.19"'],
  );
});

test('API failures become one paragraph: status and the apiserver message, never headers', async () => {
  const { ApiException } = await import('@kubernetes/client-node');
  const { userMessage } = await import('../../src/pulumi/errors.js');
  const body = { kind: 'Status', message: 'deployments.apps is forbidden: User "dev" cannot list resource "deployments"' };
  const err = new ApiException(500, 'Internal Server Error', body, { 'content-type': 'application/json', 'audit-id': 'abc' });
  assert.match(err.message, /Headers/, 'the raw client-node message is multi-line with headers');
  const text = userMessage(err);
  assert.equal(text, `HTTP 500: ${body.message}`);
  assert.doesNotMatch(text, /Headers|audit-id|\n/);
  assert.equal(userMessage(new Error('connect ECONNREFUSED 127.0.0.1:6443\n    at stack')), 'connect ECONNREFUSED 127.0.0.1:6443');
});
