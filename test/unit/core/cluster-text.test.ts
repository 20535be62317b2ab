import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cleanClusterText,
  cleanEvent,
  cleanedEvent,
  cleanedVerdict,
  clusterTextCleaner,
  MAX_TEXT_CHARS,
  sanitizeText,
} from '../../../src/core/cluster-text.js';
import type { RolloutEvent } from '../../../src/core/types.js';
import {
  BARE_SECRET,
  GITHUB_COMMAND,
  GITHUB_V1_COMMAND,
  HOSTILE,
  HUGE_LENGTH,
  HUGE_LINE,
  RAW_CONTROL,
  SECRET_MESSAGE,
} from '../../helpers/hostile-text.js';
import { crashProblem, failedRollout, failedVerdict, successfulRollout } from '../report/fixtures.js';

describe('cluster text: sanitising', () => {
  it('shows every control byte as an escape and keeps tabs', () => {
    const table: Array<[string, string]> = [
      [HOSTILE.oscTitle!, 'before\\x1b]0;pwned-title\\x07after'],
      [HOSTILE.clearScreen!, 'wipe\\x1b[2Jscreen'],
      [HOSTILE.osc8Link!, '\\x1b]8;;https://evil.example/\\x1b\\click me\\x1b]8;;\\x1b\\'],
      [HOSTILE.nul!, 'nul\\x00byte'],
      [HOSTILE.backspace!, 'secret\\x08\\x08\\x08\\x08\\x08\\x08hidden'],
      [HOSTILE.bareCr!, 'progress 10%\\x0dDONE overwritten'],
      [HOSTILE.csi8bit!, 'c1\\u009b31mred\\u009b0m'],
      [HOSTILE.otherC1!, 'next\\u0085line\\u008dreverse'],
      [HOSTILE.del!, 'del\\x7fchar'],
      [HOSTILE.bidi!, 'user\\u202egnp.exe'],
      [HOSTILE.lineSeparator!, 'one\\u2028two'],
      [HOSTILE.tab!, 'col1\tcol2'],
      ['first line\n  second line\r\nthird\n', 'first line ⏎ second line ⏎ third'],
      [GITHUB_COMMAND, '\\x3a:error::pwned by a log line'],
      [`  ${GITHUB_COMMAND}`, '  \\x3a:error::pwned by a log line'],
      [GITHUB_V1_COMMAND, '#\\x23[error]pwned the v1 way'],
      ['a::b and x ## [y]', 'a::b and x ## [y]'],
      ['plain text, ünïcödé and ✓ stay', 'plain text, ünïcödé and ✓ stay'],
    ];
    for (const [raw, want] of table) assert.equal(sanitizeText(raw), want, JSON.stringify(raw));
  });

  it('caps a 1 MB line and says it was cut, with the original length', () => {
    const out = sanitizeText(HUGE_LINE);
    assert.ok(out.length <= MAX_TEXT_CHARS, `${out.length}`);
    assert.ok(out.startsWith('HUGExxx'));
    assert.ok(out.endsWith(`… [cut: ${HUGE_LENGTH} chars]`), out.slice(-40));
  });

  it('is idempotent (the tracker and the sinks may both apply it)', () => {
    for (const s of [...Object.values(HOSTILE), HUGE_LINE, SECRET_MESSAGE, 'a\nb']) {
      const once = cleanClusterText(s);
      assert.equal(cleanClusterText(once), once);
    }
  });

  it('never splits a surrogate pair when cutting', () => {
    const out = sanitizeText('😀'.repeat(5000));
    assert.doesNotMatch(out, /[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('cluster text: redaction', () => {
  it('masks the built-in credential shapes by default and the user patterns when given', () => {
    assert.equal(cleanClusterText(SECRET_MESSAGE), 'fatal: auth failed password=*** url=postgres://u:***@db/x');
    assert.equal(cleanClusterText(BARE_SECRET), BARE_SECRET, 'no shape, no pattern: kept');
    assert.equal(clusterTextCleaner(['swordfish\\d+'])(BARE_SECRET), 'connecting with *** now');
  });

  it('redacts before cutting, so a secret is masked wherever it is', () => {
    const out = clusterTextCleaner(['hunter2'])(`hunter2 ${'y'.repeat(5000)}`);
    assert.ok(out.startsWith('*** yyy'));
  });
});

/** Every string in `value`, with its path. */
function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  return [];
}

/** `value` with every string poisoned (a hostile suffix), whatever its field, but the event `type`. */
function poison<T>(value: T): T {
  if (typeof value === 'string') return `${value}${HOSTILE.oscTitle}${BARE_SECRET}` as T;
  if (Array.isArray(value)) return value.map(poison) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'type' && typeof v === 'string' && v in KINDS ? v : poison(v)]),
    ) as T;
  return value;
}

/** Event types (the discriminant is not text). */
const KINDS: Record<string, true> = Object.fromEntries([...successfulRollout(), ...failedRollout()].map((e) => [e.type, true]));

/** Fields that are names checked by the API server, identifiers or enumerations: kept as they are. */
const KEPT =
  /(^|\.)(type|(deployment|workload)\.(namespace|name)|name|pod|container|replicaSet|revision|previous|by|restores|node|change|role|state|phase|status|condition|id|class|kind|outcome|timeoutKind|lastSeen|object\.(kind|name)|problem\.object\.name)$/;

describe('cluster text: every event', () => {
  it('cleans every free-text field of every event type; only names, ids and enumerations are kept', () => {
    const verdict = failedVerdict([
      {
        ...crashProblem(),
        probe: { kind: 'readiness', handler: 'GET http://:8080/', failures: 3 },
        missing: { kind: 'Secret', name: 's', key: 'k' },
      },
    ]);
    const events: RolloutEvent[] = [
      ...successfulRollout(),
      ...failedRollout(),
      { type: 'waiting', reason: 'not-found', message: 'm', at: 0, deployment: verdict.deployment, workload: verdict.workload },
      {
        type: 'condition',
        condition: 'Progressing',
        status: 'False',
        reason: 'r',
        message: 'm',
        at: 0,
        deployment: verdict.deployment,
        workload: verdict.workload,
      },
      { type: 'log', pod: 'p', container: 'c', line: 'l', at: 0, deployment: verdict.deployment, workload: verdict.workload },
      { type: 'problem-cleared', id: 'i', problem: crashProblem(), at: 0, deployment: verdict.deployment, workload: verdict.workload },
      { type: 'verdict', verdict, at: 0, deployment: verdict.deployment, workload: verdict.workload },
    ];
    for (const e of events) KINDS[e.type] = true;
    const clean = clusterTextCleaner(['swordfish\\d+']);
    const covered = new Set<string>();
    for (const e of events) {
      for (const [path, s] of strings(cleanEvent(poison(e), clean))) {
        if (KEPT.test(path.replace(/\[\d+\]/g, '')) || `${e.type}:${path}` === 'waiting:reason') continue;
        covered.add(`${e.type}:${path.replace(/\[\d+\]/g, '')}`);
        assert.doesNotMatch(s, RAW_CONTROL, `${e.type} ${path} still holds raw control bytes`);
        assert.ok(!s.includes('swordfish42'), `${e.type} ${path} still holds the secret`);
      }
    }
    for (const field of ['verdict:verdict.problems.terminationMessage', 'k8s-event:event.message', 'log:line', 'pod:detail'])
      assert.ok(covered.has(field), `${field} checked`);
  });
});

describe('cluster text: cleaned once', () => {
  it('a sink passes an event the boundary cleaned as it is, and cleans any other, a copy included', () => {
    const raw: RolloutEvent = { ...successfulRollout()[0]!, type: 'log', pod: 'p', container: 'c', line: 'a\u001b[2Jb password=hunter2' };
    const once = cleanEvent(raw, clusterTextCleaner(['a']));
    assert.equal(cleanedEvent(once), once, 'not cleaned twice (and the user pattern is not undone)');
    const again = cleanedEvent(raw);
    assert.notEqual(again, raw);
    assert.deepEqual(again, { ...raw, line: 'a\\x1b[2Jb password=***' });
    const copy = { ...once, line: 'x\u202ey' };
    assert.deepEqual(cleanedEvent(copy), { ...copy, line: 'x\\u202ey' });
    const verdict = failedVerdict([crashProblem()]);
    const cleanedV = cleanedVerdict(verdict);
    assert.notEqual(cleanedV, verdict);
    assert.equal(cleanedVerdict(cleanedV), cleanedV);
  });
});
