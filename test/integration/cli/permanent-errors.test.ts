/**
 * What waiting cannot fix ends the trace at once: exit 3 within 5 s (the timeout is 60 s), with one
 * paragraph that names the kubeconfig setting to correct. Each row is a kubeconfig as a user could
 * have it, against the real apiserver of the test cluster (or a front of it).
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { makeCerts, startKubectlProxy } from '../../helpers/api-fronts.js';
import { kubeConfig } from '../../helpers/cluster.js';
import { type KubeconfigShape, testCluster, testDir, writeKubeconfig } from '../../helpers/kubeconfig-files.js';
import { isOneParagraph, runCliInProcess } from './run-cli.js';

const LIMIT_MS = 5000;

/** Traces with the kubeconfig `shape` (and `args`) and checks the error: exit 3, within 5 s, one paragraph with `names`. */
async function endsAtOnce(
  t: TestContext,
  shape: KubeconfigShape | ((dir: string) => KubeconfigShape),
  names: RegExp[],
  args: string[] = [],
) {
  const dir = testDir(t);
  const file = writeKubeconfig(dir, typeof shape === 'function' ? shape(dir) : shape);
  const run = await runCliInProcess(['deploy', 'web', '-n', 'default', '--kubeconfig', file, '--timeout', '60s', '-o', 'plain', ...args]);
  t.diagnostic(`exit ${run.code} after ${run.ms} ms: ${run.stderr.trim()}`);
  assert.equal(run.code, 3, `exit ${run.code}: ${run.stdout}${run.stderr}`);
  assert.ok(run.ms < LIMIT_MS, `took ${run.ms} ms: ${run.stderr}`);
  const message = run.stderr.trim();
  assert.ok(isOneParagraph(message), message);
  assert.doesNotMatch(message, /waiting for the API server/);
  for (const n of names) assert.match(message, n);
  return message;
}

const apiServer = () => new URL(kubeConfig().getCurrentCluster()!.server);
const adminToken = () => kubeConfig().getCurrentUser()!.token!;

describe('permanent errors end the trace at once', () => {
  test('plain HTTP to another machine with a token: refused before any request (credentials in clear text)', async (t) => {
    const message = await endsAtOnce(t, { cluster: { server: 'http://10.255.255.1:8080' }, user: { token: 'a-secret-token-value' } }, [
      /server "http:\/\/10\.255\.255\.1:8080"/,
      /plain HTTP/,
      /users\[\]\.user\.token/,
      /https:\/\//,
    ]);
    assert.doesNotMatch(message, /a-secret-token-value/);
  });

  test('http:// to the HTTPS apiserver: says to use https://', async (t) => {
    const api = apiServer();
    await endsAtOnce(t, { cluster: { server: `http://127.0.0.1:${api.port}` }, user: { token: adminToken() } }, [
      /speaks HTTPS/,
      /https:\/\//,
    ]);
  });

  test('https:// to a plain-HTTP server (kubectl proxy): the TLS handshake fails, says http://', async (t) => {
    const proxy = await startKubectlProxy(kubeConfig());
    t.after(() => proxy.close());
    await endsAtOnce(t, { cluster: { server: proxy.url.replace('http:', 'https:') } }, [/TLS handshake failed/, /EPROTO/, /http:\/\//]);
  });

  test('a certificate the kubeconfig CA does not sign: names certificate-authority', async (t) => {
    const other = makeCerts('unused').caCert;
    await endsAtOnce(
      t,
      {
        cluster: testCluster(kubeConfig(), { 'certificate-authority-data': Buffer.from(other).toString('base64') }),
        user: { token: adminToken() },
      },
      [/Certificate problem/, /certificate-authority-data/, /rollout-trace-test-ca/],
    );
  });

  test('a host name not in the certificate: names the name and tls-server-name', async (t) => {
    await endsAtOnce(
      t,
      { cluster: testCluster(kubeConfig(), { 'tls-server-name': 'not-in-the-certificate.example' }), user: { token: adminToken() } },
      [/host name "not-in-the-certificate\.example"/, /tls-server-name/, /ERR_TLS_CERT_ALTNAME_INVALID/],
    );
  });

  test('an unknown context: lists the defined ones', async (t) => {
    await endsAtOnce(
      t,
      { cluster: testCluster(kubeConfig()), user: { token: adminToken() } },
      [/Context "nope"/, /Available contexts: "test"/],
      ['--context', 'nope'],
    );
  });

  test('a context whose user is not defined: names the user and the defined ones', async (t) => {
    const dir = testDir(t);
    const file = path.join(dir, 'kubeconfig');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'test', cluster: testCluster(kubeConfig()) }],
        users: [{ name: 'tester', user: { token: adminToken() } }],
        contexts: [{ name: 'test', context: { cluster: 'test', user: 'ghost' } }],
        'current-context': 'test',
      }),
    );
    const run = await runCliInProcess(['deploy', 'web', '-n', 'default', '--kubeconfig', file, '--timeout', '60s']);
    t.diagnostic(`exit ${run.code} after ${run.ms} ms: ${run.stderr.trim()}`);
    assert.equal(run.code, 3, run.stderr);
    assert.ok(run.ms < LIMIT_MS, `took ${run.ms} ms`);
    assert.match(run.stderr, /refers to user "ghost", which is not defined there; defined users: "tester"/);
  });

  test('a credential plugin that is not installed: names the command and users[].user.exec.command', async (t) => {
    const exec = {
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      command: 'rollout-trace-no-such-plugin',
      installHint: 'Install it from the cloud CLI.',
    };
    await endsAtOnce(t, { cluster: testCluster(kubeConfig()), user: { exec } }, [
      /"rollout-trace-no-such-plugin"/,
      /users\[\]\.user\.exec\.command/,
      /was not found/,
      /Install it from the cloud CLI\./,
    ]);
  });

  test('a credential plugin that exits non-zero: names the command, its exit code and its last error line', async (t) => {
    await endsAtOnce(
      t,
      (dir) => {
        const command = path.join(dir, 'failing-plugin.sh');
        writeFileSync(command, '#!/bin/sh\necho "starting" >&2\necho "error: the SSO session has expired; run cloud login" >&2\nexit 7\n');
        chmodSync(command, 0o755);
        return { cluster: testCluster(kubeConfig()), user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command } } };
      },
      [/failing-plugin\.sh/, /users\[\]\.user\.exec\.command/, /exited with code 7/, /the SSO session has expired; run cloud login/],
    );
  });

  test('401 on the first request: names the user and where its token came from', async (t) => {
    const message = await endsAtOnce(t, { cluster: testCluster(kubeConfig()), user: { token: 'not-a-valid-token' } }, [
      /rejected the credentials of user "tester" \(401 Unauthorized\)/,
      /users\[\]\.user\.token/,
    ]);
    assert.doesNotMatch(message, /not-a-valid-token/);
  });
});
