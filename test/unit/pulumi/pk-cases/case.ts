/**
 * The shape of a pulumi-kubernetes (pk) test case as this repository restates it: the case's name
 * and where pk has it, pk's expected outcome, and the input expressed in our own observations or
 * objects. pk-conformance.test.ts runs each one through our rules. The pk commit read is {@link PK_COMMIT}.
 */
import type { Observation, TrackTarget, WorkloadKind } from '../../../../src/core/index.js';
import type { Workload } from '../../../../src/core/workloads.js';
import { up } from '../../core/builders.js';

/** The pulumi-kubernetes commit whose test files these cases restate. */
export const PK_COMMIT = '94977969d';

/**
 * pk's expected outcome. `succeeded`: the await returns no error. `waiting`: still waiting when its
 * timeout fires (a timeout error), or a read that finds the object not ready. `failed`: the await
 * returns an error before its timeout.
 */
export type PkOutcome = 'succeeded' | 'waiting' | 'failed';

/** One await of pk, as our observations: the trace's verdict at pk's timeout (600 s) is compared. */
export interface TraceRun {
  /** What the trace follows (kind, name; baseline and generation as our Pulumi layer would set them). */
  target: Partial<TrackTarget>;
  /** The watch events, as our observations (the timeout is added by the test). */
  obs: Observation[];
  pk: PkOutcome;
}

/** A case run through the reducer: one await, or several in a row (pk's "multiple updates"). */
export interface TraceCase {
  via: 'trace';
  /** Unique, stable: disagreements name it. */
  id: string;
  /** pk's name of the case. */
  name: string;
  /** pk's file and the line of the case's name. */
  source: string;
  runs: TraceRun[];
}

/** A case about one object alone (pk's predicate tests): our kind's rule for it (`objectRule`). */
export interface ObjectCase {
  via: 'object';
  id: string;
  name: string;
  source: string;
  kind: WorkloadKind;
  object: Workload;
  /** What pk's predicate says, and which of ours answers it: `done` (success) or `started` (a Job's start). */
  asks: 'done' | 'started';
  pk: boolean;
}

/** A covered case. */
export type PkCase = TraceCase | ObjectCase;

/** A case about something we do not decide yet (a kind we do not trace): counted, not run. */
export interface UncoveredCase {
  id: string;
  name: string;
  source: string;
  /** pk's expectation, in a few words. */
  pk: string;
  /** Why no rule of ours decides it. */
  why: string;
}

/** A case where we deliberately decide otherwise than pk, and why. */
export interface Disagreement {
  id: string;
  reason: string;
}

/** One pk test file's cases, covered or not, and the documented disagreements among them. */
export interface PkArea {
  area: string;
  cases: PkCase[];
  uncovered: UncoveredCase[];
  disagreements: Disagreement[];
}

/** Watch events in pk's order, one a second from the start: `[kind, object]` each. */
export function inOrder(...events: Array<[string, unknown]>): Observation[] {
  return events.map(([kind, object], i) => up(kind, object, i + 1));
}

/** Builds uncovered rows of one pk file that share a reason: `[line, name, pk's expectation]`. */
export function uncoveredOf(prefix: string, file: string, why: string, rows: Array<[number, string, string]>): UncoveredCase[] {
  return rows.map(([line, name, pk], i) => ({ id: `${prefix}-${i + 1}`, name, source: `${file}:${line}`, pk, why }));
}
