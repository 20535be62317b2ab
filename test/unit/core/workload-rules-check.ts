/**
 * The row check shared by the workload-rule tables (workload-rules*.test.ts): state and reason
 * always, the words and counts when the row gives them.
 */
import assert from 'node:assert/strict';
import type { RuleResult } from '../../../src/core/kinds/rule.js';

/** What a row expects: the state and reason always, the words and counts when given. */
export interface Expected<P> {
  state: RuleResult<P>['state'];
  reason: string;
  message?: string | RegExp;
  progress?: Partial<P>;
}

/** Asserts one row: `got` has the row's state and reason, and its words and counts where the row gives them. */
export function check<P>(got: RuleResult<P>, want: Expected<P>): void {
  assert.equal(got.state, want.state, `state (message: ${got.message})`);
  assert.equal(got.reason, want.reason, `reason (message: ${got.message})`);
  if (typeof want.message === 'string') assert.equal(got.message, want.message);
  else if (want.message) assert.match(got.message, want.message);
  for (const [key, value] of Object.entries(want.progress ?? {})) {
    assert.equal((got.progress as Record<string, unknown>)[key], value, `progress.${key}`);
  }
}
