import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StatusWriter } from '../../../local-cluster/kubelet/status-writer.js';

/** A pods/status endpoint that refuses writes while `down`, and records what landed. */
function endpoint() {
  const state = { down: true, attempts: 0, landed: [] as string[], desired: 'ContainerCreating' };
  const attempt = async () => {
    state.attempts++;
    const status = state.desired; // built at write time: always the latest
    if (state.down) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    if (state.landed.at(-1) !== status) state.landed.push(status);
  };
  return { state, attempt };
}

it('a status write that fails during an outage is retried with back-off until it lands, and the latest status is written', async () => {
  const { state, attempt } = endpoint();
  const logs: string[] = [];
  const writer = new StatusWriter(attempt, { initialMs: 20, maxMs: 80, log: (l) => logs.push(l), what: 'status of pod ns/web-1' });
  await writer.write(); // ContainerCreating: lost in the outage
  assert.equal(state.landed.length, 0);
  assert.ok(writer.pending, 'a retry is owed');
  state.desired = 'Running'; // the container started meanwhile: no new write is requested
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(state.attempts >= 4, `kept retrying (${state.attempts} attempts)`);
  assert.equal(state.landed.length, 0, 'nothing lands while the apiserver is down');
  state.down = false;
  const t0 = Date.now();
  while (state.landed.length === 0 && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(state.landed, ['Running'], 'the latest desired status lands, not the stale one');
  assert.ok(Date.now() - t0 <= 80 + 200, 'within one back-off step (max 80 ms) of the recovery');
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
  await new Promise((r) => setTimeout(r, 400));
  const n = state.attempts;
  // 10 + 20 + 40 + 40 ... ms: about 10 attempts in 400 ms, not hundreds.
  assert.ok(n >= 5 && n <= 16, `${n} attempts in 400 ms`);
  writer.stop();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(state.attempts, n, 'stopped');
});
