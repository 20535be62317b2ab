/** Pluggable classifiers: user rules as pure functions, under the same policy as built-in classes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Classifier, ClassifierInput, Observation, PolicyOverrides } from '../../../src/core/index.js';
import { defaultPolicy, problemsOf, resolvePolicy } from '../../../src/core/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import { loadFixture, replay } from '../../fixtures/replay.js';
import { event, ofType, pod, run, running, T0, terminatedLast, tick, up, verdictOf, waiting } from './builders.js';
import { doneAt2, newPod, rollingTo2, UPDATE } from './scenario.js';

/** The example rule of docs/failure-policy.md: exit code 3 means the schema migration failed. */
const migration = (o: Partial<Classifier> = {}): Classifier => ({
  name: 'migration-failed',
  classify: ({ container }) =>
    container.lastState?.terminated?.exitCode === 3 || container.state?.terminated?.exitCode === 3
      ? { reason: 'MigrationFailed', explanation: 'the schema migration failed (exit 3)' }
      : undefined,
  ...o,
});

const policyWith = (...classifiers: Classifier[]) => resolvePolicy({ classifiers });

/** web-2-aaa crashed once with exit 3 (one restart: the built-in crash-loop class does not fail yet). */
const exit3 = (name = 'web-2-aaa', at = 1): Observation =>
  newPod(name, waiting('CrashLoopBackOff', 'back-off 10s restarting failed container=app', { restarts: 1, last: terminatedLast(3) }), at);

describe('custom classifiers: policy windows', () => {
  it('a custom rule fails the rollout after its window, with its explanation as the verdict summary', () => {
    const policy = policyWith(migration({ afterSeconds: 5 }));
    const backOff = event({ kind: 'Pod', name: 'web-2-aaa', reason: 'BackOff', message: 'Back-off restarting failed container', at: 2 });
    const base = [...rollingTo2(), exit3(), up('Event', backOff, 2)];
    assert.equal(verdictOf(run([...base, tick(5.9)], UPDATE, policy).events), undefined, 'not before the window');
    const { events } = run([...base, tick(3), tick(6)], UPDATE, policy);
    const problem = ofType(events, 'problem').find((e) => e.problem.class === 'custom:migration-failed');
    assert.equal(problem?.failsAt, T0 + 6_000);
    assert.equal(problem?.problem.id, 'custom:migration-failed/Pod/web-2-aaa/app');
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.finishedAt, T0 + 6_000);
    assert.equal(v?.summary, 'pod web-2-aaa container "app": the schema migration failed (exit 3) (MigrationFailed)');
    const p = v?.problems[0];
    assert.equal(p?.class, 'custom:migration-failed');
    assert.equal(p?.exitCode, 3);
    assert.equal(p?.restartCount, 1);
    assert.equal(p?.firstSeen, T0 + 1_000);
    assert.ok(p?.hints.includes('kubectl -n apps logs web-2-aaa -c app --previous'), JSON.stringify(p?.hints));
    assert.deepEqual(v?.hints, p?.hints);
    assert.deepEqual(
      p?.events.map((e) => [e.reason, e.object]),
      [['BackOff', 'Pod/web-2-aaa']],
      "the pod's warning events",
    );
    assert.ok(
      v?.problems.some((q) => q.class === 'crash-loop'),
      'the built-in diagnosis is still reported',
    );
  });

  it('afterSeconds 0 fails on the observation that shows the problem', () => {
    const v = verdictOf(run([...rollingTo2(), exit3('web-2-aaa', 2)], UPDATE, policyWith(migration({ afterSeconds: 0 }))).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.finishedAt, T0 + 2_000);
  });

  it('defaults are fail after 10 s, any pod', () => {
    const policy = policyWith(migration());
    assert.deepEqual(
      {
        action: policy.classifiers?.[0]?.action,
        afterSeconds: policy.classifiers?.[0]?.afterSeconds,
        scope: policy.classifiers?.[0]?.scope,
      },
      { action: 'fail', afterSeconds: 10, scope: 'any-pod' },
    );
    assert.equal(verdictOf(run([...rollingTo2(), exit3(), tick(10.9)], UPDATE, policy).events), undefined);
    assert.equal(verdictOf(run([...rollingTo2(), exit3(), tick(11)], UPDATE, policy).events)?.outcome, 'failed');
  });

  for (const action of ['warn', 'ignore'] as const) {
    it(`action ${action} never fails${action === 'warn' ? ': the problem is reported without failsAt' : ' and is not reported'}; the rollout succeeds`, () => {
      const policy = resolvePolicy({
        classes: { 'crash-loop': { action: 'ignore' } },
        classifiers: [migration({ action, afterSeconds: 0 })],
      });
      const { events } = run([...rollingTo2({ replicas: 3 }), exit3(), tick(30), tick(300)], UPDATE, policy);
      assert.equal(verdictOf(events), undefined);
      const problem = ofType(events, 'problem').find((e) => e.problem.class === 'custom:migration-failed');
      if (action === 'ignore') {
        assert.equal(problem, undefined, 'an ignored class is not reported');
      } else {
        assert.ok(problem, 'reported');
        assert.equal(problem.failsAt, undefined);
      }
      assert.equal(
        ofType(events, 'problem').find((e) => e.problem.class === 'crash-loop'),
        undefined,
        'the ignored built-in class is not reported',
      );
      const done = run([...rollingTo2({ replicas: 3 }), exit3(), tick(300), ...doneAt2(301)], UPDATE, policy);
      assert.equal(verdictOf(done.events)?.outcome, 'succeeded');
    });
  }

  it('a rule that stops matching is cleared and never fails', () => {
    const { events } = run(
      [...rollingTo2({ replicas: 3 }), exit3(), tick(5), newPod('web-2-aaa', running('app', { restarts: 1 }), 6), tick(30), ...doneAt2(31)],
      UPDATE,
      policyWith(migration()),
    );
    assert.deepEqual(
      ofType(events, 'problem-cleared')
        .map((e) => e.id)
        .sort(),
      ['crash-loop/Pod/web-2-aaa/app', 'custom:migration-failed/Pod/web-2-aaa/app'],
    );
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });

  it('minRestarts holds the failure until the container restarted that often', () => {
    const policy = policyWith(migration({ afterSeconds: 0, minRestarts: 2 }));
    assert.equal(verdictOf(run([...rollingTo2(), exit3(), tick(60)], UPDATE, policy).events), undefined);
    const again = newPod('web-2-aaa', waiting('CrashLoopBackOff', 'back-off 20s', { restarts: 2, last: terminatedLast(3) }), 61);
    const v = verdictOf(run([...rollingTo2(), exit3(), tick(60), again], UPDATE, policy).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.finishedAt, T0 + 61_000);
  });
});

describe('custom classifiers: scope all-new-pods', () => {
  const policy = policyWith(migration({ afterSeconds: 0, scope: 'all-new-pods' }));
  const table: Array<[string, Observation[], 'failed' | undefined]> = [
    // (Scope counts the pods seen so far: with afterSeconds 0, a lone first pod would be "all".)
    ['one of two pods matching does not fail', [newPod('web-2-bbb', running(), 1), exit3('web-2-aaa'), tick(30)], undefined],
    ['both pods matching fails', [exit3('web-2-aaa'), exit3('web-2-bbb', 2), tick(3)], 'failed'],
    [
      'a matching pod being deleted does not count as the last live pod',
      [exit3('web-2-aaa'), up('Pod', pod({ name: 'web-2-bbb', rs: 'web-2', deleting: true, containers: [running()] }), 1), tick(30)],
      'failed',
    ],
  ];
  for (const [name, obs, outcome] of table) {
    it(name, () => {
      assert.equal(verdictOf(run([...rollingTo2({ replicas: 2 }), ...obs], UPDATE, policy).events)?.outcome, outcome);
    });
  }
});

describe('custom classifiers: what a classifier sees', () => {
  it('gets every (init) container of live new pods with its spec, the pod events, the Deployment and the observation time', () => {
    const calls: ClassifierInput[] = [];
    const spy: Classifier = { name: 'spy', classify: (input) => void calls.push(input) };
    const initPod = pod({
      name: 'web-2-aaa',
      rs: 'web-2',
      initSpecs: [{ name: 'migrate', image: 'app:migrate' }],
      initContainers: [running('migrate', { ready: false })],
      containers: [waiting('PodInitializing', undefined)],
    });
    run(
      [
        ...rollingTo2(),
        up('Pod', pod({ name: 'web-1-old', rs: 'web-1', containers: [running()] }), 1),
        up('Pod', pod({ name: 'web-2-gone', rs: 'web-2', deleting: true, containers: [running()] }), 1),
        up(
          'Event',
          event({ kind: 'Pod', name: 'web-2-aaa', reason: 'Pulled', message: 'Successfully pulled image', type: 'Normal', at: 2 }),
          2,
        ),
        up('Pod', initPod, 3),
      ],
      UPDATE,
      policyWith(spy),
    );
    const last = calls.filter((c) => c.now === T0 + 3_000);
    assert.deepEqual(
      last.map((c) => [c.pod.metadata?.name, c.container.name, c.init, c.spec?.image]),
      [
        ['web-2-aaa', 'migrate', true, 'app:migrate'],
        ['web-2-aaa', 'app', false, 'nginx:1.19'],
      ],
    );
    assert.deepEqual(
      last[0]?.events.map((e) => e.reason),
      ['Pulled'],
      'Normal events included',
    );
    assert.equal(last[0]?.deployment?.metadata?.name, 'web');
    assert.ok(
      !calls.some((c) => c.pod.metadata?.name === 'web-1-old' || c.pod.metadata?.name === 'web-2-gone'),
      'old and deleting pods are not classified',
    );
  });

  it('a failing init container is reported as such', () => {
    const failedInit: Classifier = {
      name: 'migration-failed',
      afterSeconds: 0,
      classify: ({ init, container }) =>
        init && container.state?.terminated?.exitCode === 3
          ? { reason: 'MigrationFailed', explanation: 'the schema migration failed', message: 'see the migrate log' }
          : undefined,
    };
    const initPod = pod({
      name: 'web-2-aaa',
      rs: 'web-2',
      initSpecs: [{ name: 'migrate', image: 'app:migrate' }],
      initContainers: [{ ...running('migrate', { ready: false }), state: { terminated: { exitCode: 3, reason: 'Error' } } }],
      containers: [waiting('PodInitializing', undefined)],
    });
    const v = verdictOf(run([...rollingTo2(), up('Pod', initPod, 2)], UPDATE, policyWith(failedInit)).events);
    assert.equal(v?.summary, 'pod web-2-aaa init container "migrate": the schema migration failed (MigrationFailed)');
    assert.equal(v?.problems[0]?.initContainer, true);
    assert.equal(v?.problems[0]?.message, 'see the migrate log');
    assert.equal(v?.problems[0]?.exitCode, 3);
  });

  it('a rule written as a class method keeps its `this`', () => {
    class ExitCodeRule {
      name = 'bad-exit';
      afterSeconds = 0;
      constructor(private readonly code: number) {}
      classify(input: ClassifierInput) {
        return input.container.lastState?.terminated?.exitCode === this.code
          ? { reason: 'BadExit', explanation: `exit ${this.code}` }
          : undefined;
      }
    }
    const v = verdictOf(run([...rollingTo2(), exit3()], UPDATE, resolvePolicy({ classifiers: [new ExitCodeRule(3)] })).events);
    assert.equal(v?.problems[0]?.class, 'custom:bad-exit');
  });
});

describe('custom classifiers: a broken classifier never crashes the rollout', () => {
  const broken: Array<[string, Classifier['classify'], RegExp]> = [
    [
      'throws',
      () => {
        throw new TypeError('x is undefined');
      },
      /classifier "broken" threw TypeError: x is undefined \(pod web-2-aaa, container "app"\); it is skipped/,
    ],
    [
      'throws a non-Error',
      () => {
        throw 'nope';
      },
      /classifier "broken" threw nope/,
    ],
    [
      'returns no explanation',
      () => ({ reason: 'X' }) as never,
      /classifier "broken" returned \{"reason":"X"\}; a classifier returns \{ reason: string, explanation: string \}/,
    ],
    ['returns a string', () => 'bad' as never, /classifier "broken" returned bad;/],
    [
      'returns a Promise',
      () => Promise.resolve(undefined) as never,
      /classifier "broken" returned a Promise; classifiers must be synchronous/,
    ],
  ];
  for (const [name, classify, re] of broken) {
    it(`${name}: reported once as a ClassifierFailed warning; other rules and the rollout go on`, () => {
      const policy = policyWith({ name: 'broken', classify, afterSeconds: 0 }, migration({ action: 'warn' }));
      const { events, state } = run(
        // web-2-aaa recovers at 5 s: success after it stayed Ready for the settle time (5 s).
        [
          ...rollingTo2({ replicas: 3 }),
          exit3(),
          tick(2),
          tick(3),
          newPod('web-2-bbb', running(), 4),
          newPod('web-2-aaa', running(), 5),
          ...doneAt2(5),
          tick(10),
        ],
        UPDATE,
        policy,
      );
      const warnings = ofType(events, 'k8s-event').filter((e) => e.event.reason === 'ClassifierFailed');
      assert.equal(warnings.length, 1, 'once, not per observation or per pod');
      assert.equal(warnings[0]?.event.type, 'Warning');
      assert.equal(warnings[0]?.event.object, 'Pod/web-2-aaa');
      assert.match(warnings[0]?.event.message ?? '', re);
      assert.ok(
        ofType(events, 'problem').some((e) => e.problem.class === 'custom:migration-failed'),
        'the other classifier still works',
      );
      assert.ok(!Object.values(state.problems).some((p) => p.class === 'custom:broken'));
      assert.equal(verdictOf(events)?.outcome, 'succeeded');
    });
  }
});

describe('custom classifiers: ordering and built-ins', () => {
  it('a custom problem ranks before built-in ones (after workload-deleted) in problemsOf', () => {
    const policy = resolvePolicy({ classes: { 'crash-loop': { action: 'warn' } }, classifiers: [migration({ action: 'warn' })] });
    const { state } = run([...rollingTo2(), exit3()], UPDATE, policy);
    assert.deepEqual(
      problemsOf(state).map((p) => p.class),
      ['custom:migration-failed', 'crash-loop'],
    );
  });

  it('no classifiers: the policy is exactly the default one', () => {
    assert.deepEqual(resolvePolicy({ classifiers: [] }), defaultPolicy());
  });

  it('resolving a resolved policy again keeps its classifiers working', () => {
    const once = policyWith(migration({ afterSeconds: 0 }));
    const twice = resolvePolicy(once);
    assert.equal(twice.classifiers?.[0]?.afterSeconds, 0);
    assert.equal(verdictOf(run([...rollingTo2(), exit3()], UPDATE, twice).events)?.problems[0]?.class, 'custom:migration-failed');
  });
});

describe('custom classifiers: validation', () => {
  const classify = () => undefined;
  const table: Array<[string, unknown, RegExp]> = [
    [
      'not an array',
      { name: 'x', classify },
      /^policy\.classifiers is \{"name":"x"\}; it must be an array of classifiers like \[\{ name: "migration-failed", classify:/,
    ],
    ['a null entry', [null], /^policy\.classifiers\[0\] is null; each classifier must be an object like/],
    [
      'a missing name',
      [{ classify }],
      /^policy\.classifiers\[0\]\.name is undefined; a classifier name must be a non-empty string of lower-case letters, digits and "-"/,
    ],
    [
      'an upper-case name',
      [{ name: 'Migration_Failed', classify }],
      /name is "Migration_Failed"; .*e\.g\. "migration-failed".*"custom:<name>"/,
    ],
    ['an empty name', [{ name: '', classify }], /name is ""; a classifier name must be/],
    [
      'a built-in class name',
      [{ name: 'crash-loop', classify }],
      /name is "crash-loop", the name of a built-in failure class; choose another name \(e\.g\. "crash-loop-custom"\), or tune the built-in class with policy\.classes\["crash-loop"\]/,
    ],
    [
      'a duplicate name',
      [
        { name: 'a', classify },
        { name: 'a', classify },
      ],
      /^policy\.classifiers\[1\]\.name "a" is already used by policy\.classifiers\[0\]; classifier names must be unique/,
    ],
    ['no classify', [{ name: 'a' }], /^policy\.classifiers\[0\] \("a"\)\.classify is undefined; it must be a synchronous function/],
    ['classify not a function', [{ name: 'a', classify: 'exit 3' }], /classify is "exit 3"; it must be a synchronous function/],
    [
      'an async classify',
      [{ name: 'a', classify: async () => undefined }],
      /classify is an async function; classifiers must be synchronous and pure/,
    ],
    [
      'a bad action',
      [{ name: 'a', classify, action: 'explode' }],
      /^policy\.classifiers\[0\] \("a"\)\.action is "explode"; valid actions are "fail", "warn" and "ignore"/,
    ],
    ['a bad scope', [{ name: 'a', classify, scope: 'most' }], /\.scope is "most"; valid scopes are "any-pod" and "all-new-pods"/],
    [
      'negative seconds',
      [{ name: 'a', classify, afterSeconds: -1 }],
      /\("a"\)\.afterSeconds is -1; it must be a finite number of seconds >= 0/,
    ],
    ['fractional minRestarts', [{ name: 'a', classify, minRestarts: 1.5 }], /\("a"\)\.minRestarts is 1\.5; it must be an integer >= 0/],
  ];
  for (const [name, classifiers, re] of table) {
    it(`rejects ${name}`, () => {
      assert.throws(
        () => resolvePolicy({ classifiers } as PolicyOverrides),
        (err: unknown) =>
          err instanceof RolloutTraceError && err.code === 'bad-input' && re.test(err.message) && !err.message.includes('\n'),
      );
    });
  }
  it('rejects a custom class under policy.classes, pointing at the classifier knobs', () => {
    assert.throws(
      () => resolvePolicy({ classes: { 'custom:migration-failed': { action: 'warn' } } } as PolicyOverrides),
      (err: unknown) =>
        err instanceof RolloutTraceError &&
        /policy\.classes has "custom:migration-failed", a custom class; set action, afterSeconds and scope on the classifier itself/.test(
          err.message,
        ),
    );
  });
});

describe('custom classifiers on recorded rollouts', () => {
  it('crash-loop: a rule on the termination message fails at the first crash, long before the built-in class', () => {
    const f = loadFixture('crash-loop');
    const builtIn = verdictOf(replay(f).events);
    const boom: Classifier = {
      name: 'boom',
      afterSeconds: 0,
      classify: ({ container }) =>
        (container.state?.terminated ?? container.lastState?.terminated)?.message === 'boom'
          ? { reason: 'Boom', explanation: 'the app reported "boom"' }
          : undefined,
    };
    const custom = verdictOf(replay(f, { classifiers: [boom] }).events);
    assert.equal(builtIn?.outcome, 'failed');
    assert.equal(custom?.outcome, 'failed');
    assert.equal(custom?.problems[0]?.class, 'custom:boom');
    assert.match(custom?.summary ?? '', /^pod web-\S+ container "app": the app reported "boom" \(Boom\)$/);
    assert.equal(custom?.problems[0]?.exitCode, 1);
    assert.equal(custom?.finishedAt, f.t0 + 2264, 'the first terminated status');
    assert.ok(
      (builtIn?.finishedAt ?? 0) - (custom?.finishedAt ?? 0) > 10_000,
      `built-in ${builtIn?.finishedAt} vs custom ${custom?.finishedAt}`,
    );
  });

  it('update-to-2: a throwing classifier changes nothing but one warning', () => {
    const f = loadFixture('update-to-2');
    const plain = replay(f).events;
    const withBroken = replay(f, {
      classifiers: [
        {
          name: 'broken',
          classify: () => {
            throw new Error('bug');
          },
        },
      ],
    }).events;
    const strip = (v: ReturnType<typeof verdictOf>) => ({ ...v, problems: v?.problems.map((p) => p.id) });
    assert.deepEqual(strip(verdictOf(withBroken)), strip(verdictOf(plain)));
    assert.equal(withBroken.length, plain.length + 1);
    assert.equal(ofType(withBroken, 'k8s-event').filter((e) => e.event.reason === 'ClassifierFailed').length, 1);
  });
});
