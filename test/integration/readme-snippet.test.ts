import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { clients, kubeconfigPath, withNamespace } from '../helpers/cluster.js';

const run = promisify(execFile);

/** The README's API snippet, with the package import pointed at this checkout. */
function readmeSnippet(namespace: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const m = /<!-- api-snippet:start -->\s*```ts\n([\s\S]*?)```\s*<!-- api-snippet:end -->/.exec(readme);
  assert.ok(m, 'README.md has an api-snippet block');
  return m[1]!
    .replace(`from 'rollout-trace'`, `from ${JSON.stringify(path.resolve('src/index.ts'))}`)
    .replace(`namespace: 'default'`, `namespace: ${JSON.stringify(namespace)}`);
}

test("the README's API snippet runs: success exits 0, a broken image exits 1 naming the image", async (t) => {
  const ns = await withNamespace(t, 'readme');
  const { apps } = clients();
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rt-readme-')), 'snippet.mts');
  writeFileSync(file, readmeSnippet(ns));
  const env = { ...process.env, KUBECONFIG: kubeconfigPath(), CI: 'true' };
  const spec = (image: string) => ({
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  });

  await apps.createNamespacedDeployment({ namespace: ns, body: spec('nginx:1.15-alpine') });
  const ok = await run(process.execPath, ['--import', 'tsx', file], { env });
  assert.match(ok.stdout, /SUCCEEDED/);

  await apps.replaceNamespacedDeployment({ name: 'web', namespace: ns, body: spec('nginx:nonexistent-tag') });
  const failed = await run(process.execPath, ['--import', 'tsx', file], { env }).catch((e) => e);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /nginx:nonexistent-tag/);
  assert.match(failed.stderr, /kubectl/);
});
