/** Shared validation helpers for the failure policy (one-paragraph `bad-input` errors). */
import { RolloutTraceError } from '../errors.js';
import type { ClassPolicy } from './types.js';

/** Throws RolloutTraceError `bad-input` with `message`. */
export function bad(message: string): never {
  throw new RolloutTraceError('bad-input', message);
}

/** A short, readable rendering of a bad value for an error message. */
export function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return JSON.stringify(value);
  if (
    value === undefined ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint' ||
    typeof value === 'symbol'
  ) {
    return String(value);
  }
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  } catch {
    return 'an object';
  }
}

/** Checks a number of seconds (finite, >= 0). */
export function checkSeconds(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    bad(`${what} is ${show(value)}; it must be a finite number of seconds >= 0 (e.g. 0, 10, 120).`);
  }
}

/** Checks the policy knobs of a class or classifier; `path` names it, e.g. `policy.classes["crash-loop"]`. */
export function checkKnobs(path: string, o: Partial<ClassPolicy>): void {
  if (o.action !== undefined && !['fail', 'warn', 'ignore'].includes(o.action)) {
    bad(`${path}.action is ${show(o.action)}; valid actions are "fail", "warn" and "ignore".`);
  }
  if (o.scope !== undefined && !['any-pod', 'all-new-pods'].includes(o.scope)) {
    bad(`${path}.scope is ${show(o.scope)}; valid scopes are "any-pod" and "all-new-pods".`);
  }
  if (o.afterSeconds !== undefined) checkSeconds(o.afterSeconds, `${path}.afterSeconds`);
  if (o.minRestarts !== undefined && (!Number.isInteger(o.minRestarts) || o.minRestarts < 0)) {
    bad(`${path}.minRestarts is ${show(o.minRestarts)}; it must be an integer >= 0.`);
  }
  if (o.tolerate !== undefined && (!Number.isInteger(o.tolerate) || o.tolerate < 0)) {
    bad(
      `${path}.tolerate is ${show(o.tolerate)}; it must be an integer >= 0 (the number of pods that may have the problem without failing the rollout).`,
    );
  }
}
