/**
 * The declared pod template against the live one, compared as pk's typed scheme reads values
 * (template-diff.ts): one row per spelling pair, for a Deployment (quantities by value, as its
 * controller compares templates) and for the kinds that compare the canonical text (Job,
 * StatefulSet, DaemonSet).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkloadKind } from '../../../src/core/index.js';
import { describeChange, templateChanges } from '../../../src/pulumi/template-diff.js';

type Container = Record<string, unknown>;

const template = (container: Container, pod: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.19', ...container }], ...pod },
});

/** The live side as the API server returns it: defaults filled in, quantities in their stored text. */
const live = (container: Container, pod: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'web' }, creationTimestamp: null },
  spec: {
    containers: [
      { name: 'app', image: 'nginx:1.19', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', ...container },
    ],
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
    ...pod,
  },
});

const requests = (r: Record<string, unknown>) => ({ resources: { requests: r, limits: r } });

/** [what, declared container, live container]: no change for any kind. */
const SAME: [string, Container, Container][] = [
  ['cpu 0.5 (a number) is the live 500m', requests({ cpu: 0.5 }), requests({ cpu: '500m' })],
  ['cpu "0.5" is the live 500m', requests({ cpu: '0.5' }), requests({ cpu: '500m' })],
  ['cpu 1 (a number) is the live "1"', requests({ cpu: 1 }), requests({ cpu: '1' })],
  ['cpu 1000m is the live "1"', requests({ cpu: '1000m' }), requests({ cpu: '1' })],
  ['memory 1024Mi is the live 1Gi', requests({ memory: '1024Mi' }), requests({ memory: '1Gi' })],
  ['memory 0.5Gi is the live 512Mi', requests({ memory: '0.5Gi' }), requests({ memory: '512Mi' })],
  ['memory 64e6 is the live 64e6 (kept as written)', requests({ memory: '64e6' }), requests({ memory: '64e6' })],
  ['memory 64e6 (a number) is the live 64M', requests({ memory: 64e6 }), requests({ memory: '64M' })],
  ['memory 1.5e3 is the live 1500', requests({ memory: '1.5e3' }), requests({ memory: '1500' })],
  ['an extended resource 1000 is the live 1k', requests({ 'example.com/gpu': 1000 }), requests({ 'example.com/gpu': '1k' })],
  ['an int port 80 is the live 80', { ports: [{ containerPort: 80 }] }, { ports: [{ containerPort: 80, protocol: 'TCP' }] }],
  ['an empty args list is no args live', { args: [] }, {}],
  [
    'a named probe port is the live name',
    { readinessProbe: { httpGet: { port: 'http' } } },
    { readinessProbe: { httpGet: { port: 'http', scheme: 'HTTP' } } },
  ],
];

/** [what, declared container, live container]: a change for every kind. */
const CHANGED: [string, Container, Container][] = [
  ['cpu 0.5 against the live 250m', requests({ cpu: 0.5 }), requests({ cpu: '250m' })],
  ['memory 1Gi against the live 1G', requests({ memory: '1Gi' }), requests({ memory: '1G' })],
  // pk's typed scheme keeps an int-or-string's type (a string of digits is refused as a port name).
  [
    'a probe port "80" against the live 80',
    { livenessProbe: { tcpSocket: { port: '80' } } },
    { livenessProbe: { tcpSocket: { port: 80 } } },
  ],
  ['a containerPort "80" against the live 80', { ports: [{ containerPort: '80' }] }, { ports: [{ containerPort: 80 }] }],
  [
    'an env value "0.5" against the live "500m" (not a quantity)',
    { env: [{ name: 'A', value: '0.5' }] },
    { env: [{ name: 'A', value: '500m' }] },
  ],
  ['a non-empty args list against no args live', { args: ['-v'] }, {}],
];

const KINDS: WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'];

test('spellings of one value are no change, for every kind', () => {
  for (const kind of KINDS) {
    for (const [what, declared, stored] of SAME) {
      assert.deepEqual(templateChanges(template(declared), live(stored), { kind }), [], `${kind}: ${what}`);
    }
  }
});

test('other values are a change, for every kind', () => {
  for (const kind of KINDS) {
    for (const [what, declared, stored] of CHANGED) {
      assert.ok(templateChanges(template(declared), live(stored), { kind }).length > 0, `${kind}: ${what}`);
    }
  }
});

test('pod overhead and emptyDir sizeLimit are quantities', () => {
  const volume = (sizeLimit: unknown) => ({
    volumes: [{ name: 'scratch', emptyDir: { sizeLimit } }],
    overhead: { cpu: sizeLimit === '1Gi' ? '250m' : 0.25 },
  });
  assert.deepEqual(templateChanges(template({}, volume('1024Mi')), live({}, volume('1Gi'))), []);
});

test('one value in another format: no rollout for a Deployment (value), a change for the kinds that compare the text', () => {
  const declared = template(requests({ memory: '64e6' }));
  const stored = live(requests({ memory: '64M' }));
  assert.deepEqual(templateChanges(declared, stored, { kind: 'Deployment' }), []);
  for (const kind of ['StatefulSet', 'DaemonSet', 'Job'] as const) {
    const changes = templateChanges(declared, stored, { kind });
    assert.deepEqual(changes.map(describeChange), [
      'spec.containers[app].resources.requests.memory: "64M" → "64e6"',
      'spec.containers[app].resources.limits.memory: "64M" → "64e6"',
    ]);
  }
  // Without a kind: pk's own diff, the canonical text.
  assert.equal(templateChanges(declared, stored).length, 2);
});
