/**
 * pk's Deployment await cases (provider/pkg/await/deployment_test.go `Test_Apps_Deployment`), in
 * our words: each is the watch events pk sends, as our observations, and whether pk's awaiter
 * succeeds or is still waiting when its timeout fires. pk runs them as a create (no previous
 * outputs), so the trace has no baseline revision.
 */
import { inOrder, type PkCase, type TraceCase } from './case.js';
import {
  dAdded,
  dAvailableOnly,
  dBadImage,
  dComplete,
  dDeadline,
  dProgressing,
  dScaledToZero,
  dUnavailable,
  dUpdated,
  dUpdating,
  podBadImage,
  podReady,
  RS,
  rsEmpty,
  rsOfBar,
  rsReady,
  unrelated,
} from './deployment-objects.js';

const F = 'provider/pkg/await/deployment_test.go';
type Events = Array<[string, unknown]>;

/** One case of `Test_Apps_Deployment`: a create, events in order, pk's outcome. */
function create(id: string, line: number, name: string, pk: TraceCase['runs'][0]['pk'], events: Events): PkCase {
  return { via: 'trace', id: `deployment-${id}`, name, source: `${F}:${line}`, runs: [{ target: {}, obs: inOrder(...events), pk }] };
}

/** The same case for revision 1 and revision 2 (pk writes them as two cases). */
const both = (id: string, lines: [number, number], name: string, pk: 'succeeded' | 'waiting', events: (rev: string) => Events) => [
  create(`${id}-r1`, lines[0], `[Revision 1] ${name}`, pk, events('1')),
  create(`${id}-r2`, lines[1], `[Revision 2] ${name}`, pk, events('2')),
];

/** `Test_Apps_Deployment`'s cases. */
export const deploymentCases: PkCase[] = [
  ...both('created', [44, 65], 'Should succeed after creating ReplicaSet', 'succeeded', (r) => [
    ['Deployment', dAdded(r)],
    ['Deployment', dProgressing(r)],
    ['Deployment', dUnavailable(r)],
    ['Deployment', dComplete(r)],
    ['ReplicaSet', rsReady(r)],
  ]),
  ...both('rs-first', [86, 106], 'Succeed if ReplicaSet becomes available before Deployment repots it', 'succeeded', (r) => [
    ['Deployment', dAdded(r)],
    ['Deployment', dProgressing(r)],
    ['Deployment', dUnavailable(r)],
    ['ReplicaSet', rsReady(r)],
    ['Deployment', dComplete(r)],
  ]),
  create('update-rolled-out', 126, '[Revision 2] Should succeed if update has rolled out', 'succeeded', [
    ['Deployment', dUpdated('2')],
    ['Deployment', dUpdating('2')],
    ['Deployment', dUpdated('2')],
    ['ReplicaSet', rsReady('2')],
  ]),
  create('scaled-to-0', 145, 'Should succeed if Deployment scaled to 0', 'succeeded', [
    ['Deployment', dScaledToZero('2')],
    ['ReplicaSet', rsEmpty('2')],
  ]),
  ...both('unrelated-succeeds', [160, 182], 'Should fail if unrelated Deployment succeeds', 'waiting', (r) => [
    ['Deployment', dAdded(r)],
    ['ReplicaSet', rsReady(r)],
    ['Deployment', unrelated(dComplete(r))],
    ['ReplicaSet', rsOfBar(r)],
  ]),
  ...both('unrelated-fails', [204, 220], 'Should succeed when unrelated deployment fails', 'succeeded', (r) => [
    ['Deployment', dComplete(r)],
    ['ReplicaSet', rsReady(r)],
    ['Deployment', unrelated(dAdded(r))],
    ['ReplicaSet', rsOfBar(r)],
  ]),
  ...both('success-then-failure', [236, 250], 'Should report success even if the next event is a failure', 'succeeded', (r) => [
    ['Deployment', dComplete(r)],
    ['ReplicaSet', rsReady(r)],
    ['Deployment', dBadImage(r)],
  ]),
  create('r1-timeout-before-rs', 264, '[Revision 1] Should fail if timeout occurs before ReplicaSet becomes available', 'waiting', [
    ['Deployment', dAdded('1')],
    ['ReplicaSet', rsReady('1')],
  ]),
  create(
    'r2-timeout-before-controller',
    284,
    '[Revision 2] Should fail if timeout occurs before Deployment controller progresses',
    'waiting',
    [
      ['Deployment', dAdded('2')],
      ['ReplicaSet', rsReady('2')],
    ],
  ),
  create('r2-timeout-before-rs-created', 304, '[Revision 2] Should fail if timeout occurs before ReplicaSet is created', 'waiting', [
    ['Deployment', dAdded('2')],
    ['Deployment', dProgressing('2')],
  ]),
  create(
    'r2-timeout-before-rs-available',
    324,
    '[Revision 2] Should fail if timeout occurs before ReplicaSet becomes available',
    'waiting',
    [
      ['Deployment', dAdded('2')],
      ['Deployment', dProgressing('2')],
      ['Deployment', dUnavailable('2')],
    ],
  ),
  create('r2-no-new-rs', 347, "[Revision 2] Should fail if new ReplicaSet isn't created after an update", 'waiting', [
    ['Deployment', dUpdated('2')],
  ]),
  create('r2-new-rs-not-available', 365, '[Revision 2] Should fail if timeout before new ReplicaSet becomes available', 'waiting', [
    ['Deployment', dUpdated('2')],
    ['Deployment', dUpdating('2')],
  ]),
  create('r1-no-progressing', 385, "[Revision 1] Deployment should succeed and not report 'Progressing' condition", 'succeeded', [
    ['Deployment', dAdded('1')],
    ['Deployment', dAvailableOnly('1')],
    ['ReplicaSet', rsReady('1')],
  ]),
  create('r2-no-progressing', 402, "[Revision 2] Deployment should fail if 'Progressing' condition is missing", 'waiting', [
    ['Deployment', dAdded('2')],
    ['Deployment', dAvailableOnly('2')],
    ['ReplicaSet', rsReady('2')],
  ]),
  create('r2-progress-deadline', 425, "[Revision 2] Deployment should fail if Deployment reports 'Progressing' failure", 'waiting', [
    ['Deployment', dAdded('2')],
    ['Deployment', dProgressing('2')],
    ['Deployment', dDeadline('2')],
    ['ReplicaSet', rsReady('2')],
  ]),
  create('r2-bad-image', 451, '[Revision 2] Should fail if Deployment is progressing but new ReplicaSet not available', 'waiting', [
    ['Deployment', dAdded('2')],
    ['Deployment', dProgressing('2')],
    ['Deployment', dBadImage('2')],
    ['ReplicaSet', rsReady('2')],
  ]),
  ...both('pods-of-other-rs', [475, 501], 'Failure should only report Pods from active ReplicaSet, part 1', 'waiting', (r) => [
    ['Deployment', dProgressing(r)],
    ['ReplicaSet', rsReady(r)],
    ['Pod', podReady(RS)],
    ['Pod', podBadImage('bar')],
  ]),
  ...both('pods-of-active-rs', [527, 555], 'Failure should only report Pods from active ReplicaSet, part 2', 'waiting', (r) => [
    ['Deployment', dProgressing(r)],
    ['ReplicaSet', rsReady(r)],
    ['Pod', podBadImage(RS)],
    ['Pod', podReady('bar')],
  ]),
  create('rs-revision-mismatch', 583, 'Should fail if ReplicaSet generations do not match', 'waiting', [
    ['Deployment', dComplete('1')],
    ['ReplicaSet', rsReady('2')],
  ]),
];

/** Where we decide otherwise than pk's Deployment awaiter, on purpose. */
export const deploymentDisagreements = [
  {
    id: 'deployment-scaled-to-0',
    reason:
      "pk's case keeps spec.replicas 1 while the status counts no pod; pk reads only the conditions and the ReplicaSet, we also need the Deployment's own counts to show every desired pod updated and available (kubectl's `rollout status` rule), so we wait",
  },
  {
    id: 'deployment-r2-progress-deadline',
    reason:
      'we fail a Deployment whose controller reports Progressing=False ProgressDeadlineExceeded as soon as it says so, where pk only lists it among its messages and waits for its own timeout',
  },
];
