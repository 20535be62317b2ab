/** Long durations work: `--timeout 597h` used to overflow Node's timer (an instant false TIMED OUT, exit 70). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { kubeconfigPath } from '../../helpers/cluster.js';
import { createDeployment, namespaceFor } from '../track/helpers.js';
import { runCliInProcess } from './run-cli.js';

it('--timeout 597h and --no-progress-timeout 600h on a healthy Deployment: success (exit 0), no TimeoutOverflowWarning', async (t) => {
  const ns = await namespaceFor(t, 'long-timeout');
  // Pods that start after 5 s: the trace waits with the long timers armed (an overflow fired at
  // once). The pods' seconds run from their start, before the CLI's: 5 s leaves a loaded machine
  // 3.5 s between the Deployment's creation and the CLI's start.
  await createDeployment(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=5' } });
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  t.after(() => process.off('warning', onWarning));
  const flags = '-o plain --timeout 597h --no-progress-timeout 600h --wait-for-creation 700h'.split(' ');
  const r = await runCliInProcess(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), ...flags]);
  t.diagnostic(`exit ${r.code} after ${r.ms} ms; warnings: ${warnings.length}`);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /SUCCEEDED/);
  assert.ok(r.ms > 1500, `waited for the slow pods (${r.ms} ms), not an instant verdict`);
  assert.deepEqual(
    warnings.filter((w) => w.startsWith('TimeoutOverflowWarning')),
    [],
  );
});

it('an absurd duration is a one-paragraph usage error (exit 2)', async () => {
  const r = await runCliInProcess(['deploy', 'web', '--timeout', '99999999999999999999h']);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^rollout-trace: --timeout "99999999999999999999h" cannot be used: it is longer than the longest duration supported/,
  );
  assert.equal(r.stderr.trim().split('\n').length, 1);
});
