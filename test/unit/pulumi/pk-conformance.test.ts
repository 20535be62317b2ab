/**
 * Agreement with pulumi-kubernetes' own test cases, as a figure. Every case of pk's await and diff
 * tests that concerns what rollout-trace decides is restated under pk-cases/ and run here through
 * our rules: the reducer's verdict at pk's timeout, or a kind's rule for one object. A case agrees,
 * or is a documented disagreement (with its reason); an undocumented disagreement fails, and so does
 * a documented one that agrees now. Cases about what we do not decide yet are counted, not run.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { kindModule, type Observation } from '../../../src/core/index.js';
import { run, T0, verdictOf } from '../core/builders.js';
import { type ObjectCase, PK_COMMIT, type PkArea, type PkCase, type PkOutcome, type TraceRun } from './pk-cases/case.js';
import { PK_AREAS } from './pk-cases/index.js';

/** pk's default await timeout: the trace's timeout comes when pk's would. */
const TIMEOUT_S = 600;

/**
 * The observations with the tracker's tick every second (time enters the core only through
 * observations), up to pk's timeout.
 */
function withTicks(obs: Observation[]): Observation[] {
  const out: Observation[] = [];
  let i = 0;
  for (let s = 0; s < TIMEOUT_S; s += 1) {
    const at = T0 + s * 1000;
    while (i < obs.length && (obs[i]?.at ?? 0) <= at) out.push(obs[i++] as Observation);
    out.push({ type: 'tick', at });
  }
  out.push(...obs.slice(i), { type: 'timeout', at: T0 + TIMEOUT_S * 1000, timeoutSeconds: TIMEOUT_S });
  return out;
}

/** Our outcome of one pk await: the verdict at the timeout (or before it), in pk's terms. */
function ourRun(r: TraceRun): PkOutcome {
  const verdict = verdictOf(run(withTicks(r.obs), r.target).events);
  if (verdict?.outcome === 'succeeded') return 'succeeded';
  if (verdict?.outcome === 'failed') return 'failed';
  return 'waiting';
}

/** Our answer to a pk predicate on one object. */
function ourAnswer(c: ObjectCase): boolean {
  const rule = kindModule(c.kind).objectRule(c.object);
  return c.asks === 'done' ? rule.state === 'done' : rule.reason !== 'NotStarted';
}

/** What pk expects and what we decide, in words; equal when we agree. */
function compare(c: PkCase): { pk: string; ours: string } {
  if (c.via === 'object') return { pk: String(c.pk), ours: String(ourAnswer(c)) };
  return { pk: c.runs.map((r) => r.pk).join(', then '), ours: c.runs.map(ourRun).join(', then ') };
}

const tally = { cases: 0, agree: 0, documented: 0, uncovered: 0 };

function areaTests(area: PkArea): void {
  const reasons = new Map(area.disagreements.map((d) => [d.id, d.reason]));
  it('names each documented disagreement once, for a case of its area', () => {
    const ids = new Set(area.cases.map((c) => c.id));
    assert.equal(reasons.size, area.disagreements.length, 'a disagreement listed twice');
    for (const id of reasons.keys()) assert.ok(ids.has(id), `disagreement ${id} names no case`);
  });
  for (const c of area.cases) {
    tally.cases += 1;
    const reason = reasons.get(c.id);
    it(`${c.name} (${c.source})`, () => {
      const { pk, ours } = compare(c);
      if (reason === undefined) {
        assert.equal(ours, pk, `${c.id}: pk expects ${pk}, we decide ${ours}; agree, or list it as a disagreement with its reason`);
        tally.agree += 1;
      } else {
        assert.notEqual(ours, pk, `${c.id} is listed as a disagreement (${reason}) but we agree now: remove it from the list`);
        tally.documented += 1;
      }
    });
  }
  tally.cases += area.uncovered.length;
  tally.uncovered += area.uncovered.length;
}

describe(`pk conformance (pulumi-kubernetes ${PK_COMMIT})`, () => {
  for (const area of PK_AREAS) describe(area.area, () => areaTests(area));

  it('every case has a unique id and a pk source line', () => {
    const all = PK_AREAS.flatMap((a) => [...a.cases, ...a.uncovered]);
    assert.equal(new Set(all.map((c) => c.id)).size, all.length, 'duplicate ids');
    for (const c of all) assert.match(c.source, /^provider\/pkg\/.+_test\.go:\d+$/, c.id);
  });

  after(() => {
    const { cases, agree, documented, uncovered } = tally;
    console.log(
      `pk conformance: ${agree} of ${cases} pk cases agree (${documented} documented disagreements, ${uncovered} not covered yet)`,
    );
  });
});
