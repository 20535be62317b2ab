import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StatusWriter } from '../../../local-cluster/kubelet/status-writer.js';

/** A pods/status endpoint that refuses writes while `down`, and records what landed. */
function endpoint() {
  const state = { down: true, attempts: 0, at: [] as number[], landed: [] as string[], desired: 'ContainerCreating' };
  const attempt = async () => {
    state.attempts++;
    state.at.push(performance.now());
    const status = state.desired; // built at write time: always the latest
    if (state.down) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    if (state.landed.at(-1) !== status) state.landed.push(status);
  };
  return { state, attempt };
}

/** Waits for `check` (polling every 5 ms), failing after 5 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('a status write that fails during an outage is retried with back-off until it lands, and the latest status is written', async () => {
  const { state, attempt } = endpoint();
  const logs: string[] = [];
  const writer = new StatusWriter(attempt, { initialMs: 20, maxMs: 80, log: (l) => logs.push(l), what: 'status of pod ns/web-1' });
  await writer.write(); // ContainerCreating: lost in the outage
  assert.equal(state.landed.length, 0);
  assert.ok(writer.pending, 'a retry is owed');
  state.desired = 'Running'; // the container started meanwhile: no new write is requested
  await until(() => state.attempts >= 4, 'four attempts during the outage');
  assert.equal(state.landed.length, 0, 'nothing lands while the apiserver is down');
  const before = state.attempts;
  state.down = false;
  await until(() => state.landed.length > 0, 'the status landed after the recovery');
  assert.deepEqual(state.landed, ['Running'], 'the latest desired status lands, not the stale one');
  assert.equal(state.attempts, before + 1, 'the first retry after the recovery lands (one back-off step, at most 80 ms)');
  assert.equal(writer.pending, false);
  const attempts = state.attempts;
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(state.attempts, attempts, 'no more writes once it landed');
  assert.match(logs[0] ?? '', /status of pod ns\/web-1 not written, retrying until it lands: .*ECONNREFUSED|fetch failed/);
  assert.match(logs.at(-1) ?? '', /written after \d+ failed attempt/);
});

it('back-off grows to the re-sync period, and stop() ends the retries', async () => {
  const { state, attempt } = endpoint();
  const writer = new StatusWriter(attempt, { initialMs: 10, maxMs: 40 });
  await writer.write();
  await until(() => state.attempts >= 6, 'six attempts');
  writer.stop();
  const n = state.attempts;
  // Each retry waits at least its back-off step (a timer never fires early): 10, 20, 40, 40 ms.
  const gaps = state.at.slice(1, 6).map((t, i) => t - (state.at[i] ?? 0));
  for (const [i, want] of [10, 20, 40, 40, 40].entries()) assert.ok((gaps[i] ?? 0) >= want - 2, `gap ${i}: ${gaps[i]} ms, want >= ${want}`);
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(state.attempts, n, 'stopped');
});
