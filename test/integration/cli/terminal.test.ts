/**
 * The CLI on a pseudo-terminal 0 columns wide (what `script` and some CI runners report): the live
 * tree once redrew forever there (~3 MB/s), ignoring --timeout and signals. Each run is bounded, so
 * a hang fails the test (and the hung process is killed).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAlive } from '../../../local-cluster/processes.js';
import { kubeconfigPath, waitUntil } from '../../helpers/cluster.js';
import { createDeployment, withNamespace } from '../track/helpers.js';
import { runCliInPty } from './run-cli.js';

/** A Deployment that never becomes ready while the test runs (its pod stays ContainerCreating). */
const STUCK = { behaviour: { app: 'slow-start;seconds=600' } };
/** Far more than a healthy live tree writes in a few seconds, far less than a redraw loop. */
const MAX_BYTES = 1_000_000;

describe('rollout-trace on a 0-column terminal', () => {
  test('--timeout 8s ends it with exit 70 within a bound, and the output stays small', async (t) => {
    const ns = await withNamespace(t, 'pty-zero');
    await createDeployment(ns, 'web', STUCK);
    const run = await runCliInPty(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '--timeout', '8s'], { timeoutMs: 90_000 });
    t.diagnostic(`exit ${run.code} after ${run.ms} ms, ${run.bytes} bytes`);
    assert.equal(run.code, 70, `exit code (output tail: ${JSON.stringify(run.stdout.slice(-500))})`);
    assert.ok(run.ms < 60_000, `took ${run.ms} ms for an 8 s timeout`);
    assert.ok(run.bytes < MAX_BYTES, `${run.bytes} bytes written`);
    assert.match(run.stdout, /TIMED OUT \(after 8s\)/);
  });

  test('SIGTERM ends it with exit 130 within seconds', async (t) => {
    const ns = await withNamespace(t, 'pty-term');
    await createDeployment(ns, 'web', STUCK);
    let pid: number | undefined;
    let signalledAt = 0;
    const run = await runCliInPty(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '--timeout', '5m'], {
      timeoutMs: 90_000,
      onPid: (p) => (pid = p),
      onStdout: (out) => {
        // Once the live tree is drawn (the rendering that used to spin), send the signal.
        if (signalledAt === 0 && pid !== undefined && out.includes(`${ns}/web`)) {
          signalledAt = Date.now();
          process.kill(pid, 'SIGTERM');
        }
      },
    });
    const afterSignal = Date.now() - signalledAt;
    t.diagnostic(`exit ${run.code} ${afterSignal} ms after SIGTERM, ${run.bytes} bytes`);
    assert.ok(signalledAt > 0, `the tree was never drawn: ${JSON.stringify(run.stdout.slice(-500))}`);
    assert.equal(run.code, 130, `exit code (output tail: ${JSON.stringify(run.stdout.slice(-500))})`);
    assert.ok(afterSignal < 10_000, `exited ${afterSignal} ms after SIGTERM`);
    assert.ok(run.bytes < MAX_BYTES, `${run.bytes} bytes written`);
  });

  test('a SIGKILLed parent (the terminal closes): the CLI does not outlive it', async (t) => {
    const ns = await withNamespace(t, 'pty-orphan');
    await createDeployment(ns, 'web', STUCK);
    let pid: number | undefined;
    let killedAt = 0;
    await runCliInPty(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '--timeout', '5m'], {
      timeoutMs: 90_000,
      onPid: (p) => (pid = p),
      onStdout: (out, script) => {
        if (killedAt === 0 && pid !== undefined && out.includes(`${ns}/web`)) {
          killedAt = Date.now();
          script.kill('SIGKILL');
        }
      },
    });
    assert.ok(killedAt > 0 && pid !== undefined, 'the tree was drawn');
    const gone = await waitUntil(() => !isAlive(pid!), {
      what: `rollout-trace (pid ${pid}) to end after its terminal closed`,
      timeoutMs: 15_000,
    }).catch(() => false);
    if (!gone) process.kill(pid!, 'SIGKILL');
    t.diagnostic(`ended ${Date.now() - killedAt} ms after the terminal closed`);
    assert.ok(gone, `rollout-trace (pid ${pid}) still runs 15 s after its terminal closed`);
  });
});
