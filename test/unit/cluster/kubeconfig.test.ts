import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { contextNamespace, loadKubeConfig } from '../../../src/cluster/kubeconfig.js';
import { RolloutTraceError } from '../../../src/errors.js';

function yaml(prefix: string, opts: { current?: string; namespace?: string; caFile?: string } = {}): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${prefix}-cluster`,
    '  cluster:',
    `    server: https://${prefix}.example:6443`,
    ...(opts.caFile ? [`    certificate-authority: ${opts.caFile}`] : []),
    'users:',
    `- name: ${prefix}-user`,
    '  user:',
    `    token: ${prefix}-token`,
    'contexts:',
    `- name: ${prefix}`,
    '  context:',
    `    cluster: ${prefix}-cluster`,
    `    user: ${prefix}-user`,
    ...(opts.namespace ? [`    namespace: ${opts.namespace}`] : []),
    ...(opts.current !== undefined ? [`current-context: ${opts.current}`] : [`current-context: ${prefix}`]),
    '',
  ].join('\n');
}

function rejects(fn: () => unknown, code: string, ...fragments: (string | RegExp)[]): RolloutTraceError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof RolloutTraceError, `expected a RolloutTraceError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  for (const f of fragments) {
    if (typeof f === 'string') assert.ok(caught.message.includes(f), `message lacks ${JSON.stringify(f)}: ${caught.message}`);
    else assert.match(caught.message, f);
  }
  assert.ok(!caught.message.includes('\n'), 'message is one paragraph');
  return caught;
}

describe('loadKubeConfig', () => {
  let dir: string;
  const savedEnv = process.env.KUBECONFIG;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rt-kc-'));
  });
  afterEach(() => {
    if (savedEnv === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = savedEnv;
  });

  it('loads a path and makes relative file references absolute', () => {
    const p = join(dir, 'config');
    writeFileSync(p, yaml('a', { namespace: 'team-a', caFile: 'ca.crt' }));
    const kc = loadKubeConfig({ kubeconfig: p });
    assert.equal(kc.getCurrentContext(), 'a');
    assert.equal(kc.getCurrentCluster()?.server, 'https://a.example:6443');
    assert.equal(kc.getCurrentCluster()?.caFile, join(dir, 'ca.crt'));
    assert.equal(contextNamespace(kc), 'team-a');
  });

  it('loads YAML content and JSON content (Pulumi accepts contents or a path)', () => {
    const kc = loadKubeConfig({ kubeconfig: yaml('b') });
    assert.equal(kc.getCurrentUser()?.name, 'b-user');
    assert.equal(contextNamespace(kc), 'default');
    const json = JSON.stringify({
      apiVersion: 'v1',
      clusters: [{ name: 'c', cluster: { server: 'https://c.example' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'json-ns' } }],
      'current-context': 'ctx',
    });
    const kj = loadKubeConfig({ kubeconfig: json });
    assert.equal(kj.getCurrentCluster()?.server, 'https://c.example');
    assert.equal(contextNamespace(kj), 'json-ns');
  });

  it("accepts a loaded KubeConfig, with a context override, without changing the caller's object", () => {
    const kc = new KubeConfig();
    kc.loadFromString(yaml('d'));
    kc.addContext({ name: 'other', cluster: 'd-cluster', user: 'd-user', namespace: 'o' });
    const before = kc.getCurrentContext();
    const out = loadKubeConfig({ kubeconfig: kc, context: 'other' });
    assert.notEqual(out, kc);
    assert.equal(out.getCurrentContext(), 'other');
    assert.equal(contextNamespace(out), 'o');
    assert.equal(out.getCurrentCluster()?.server, kc.getCluster('d-cluster')?.server);
    assert.equal(kc.getCurrentContext(), before);
    assert.notEqual(before, 'other');
    assert.equal(loadKubeConfig({ kubeconfig: kc }).getCurrentContext(), before);
  });

  it('merges $KUBECONFIG files like kubectl: first file wins, missing files skipped', () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    writeFileSync(a, yaml('a'));
    writeFileSync(b, yaml('b', { current: 'b' }));
    process.env.KUBECONFIG = [join(dir, 'missing'), a, b].join(delimiter);
    const kc = loadKubeConfig();
    assert.equal(kc.getCurrentContext(), 'a');
    assert.deepEqual(
      kc
        .getContexts()
        .map((c) => c.name)
        .sort(),
      ['a', 'b'],
    );
    const kb = loadKubeConfig({ context: 'b' });
    assert.equal(kb.getCurrentCluster()?.server, 'https://b.example:6443');
    assert.equal(kb.getCurrentUser()?.name, 'b-user');
  });

  it('names the missing path', () => {
    rejects(() => loadKubeConfig({ kubeconfig: join(dir, 'nope.yaml') }), 'kubeconfig', join(dir, 'nope.yaml'), 'ENOENT');
  });

  it('names unparsable content', () => {
    rejects(() => loadKubeConfig({ kubeconfig: 'clusters: [oops\nusers: {' }), 'kubeconfig', 'Could not parse the kubeconfig text');
    rejects(() => loadKubeConfig({ kubeconfig: '{"apiVersion": "v1"}' }), 'kubeconfig', 'defines no clusters');
  });

  it('lists the available contexts for an unknown context', () => {
    const p = join(dir, 'config');
    writeFileSync(p, yaml('a'));
    rejects(() => loadKubeConfig({ kubeconfig: p, context: 'prod' }), 'kubeconfig', 'Context "prod"', 'Available contexts: "a"');
  });

  it('explains a config without a current context', () => {
    rejects(() => loadKubeConfig({ kubeconfig: yaml('a', { current: '""' }) }), 'kubeconfig', 'no current-context', '"a"');
  });

  it('explains when every $KUBECONFIG file is missing', () => {
    process.env.KUBECONFIG = join(dir, 'x') + delimiter + join(dir, 'y');
    rejects(() => loadKubeConfig(), 'kubeconfig', 'None of the files in $KUBECONFIG exist', join(dir, 'x'));
  });
});
