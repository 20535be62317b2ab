/**
 * User failure rules ({@link Classifier}): validation, and the policy of a `custom:<name>` class.
 * Running them is `diagnose/custom.ts`.
 */
import type { Classifier, ClassPolicy, CustomClass, FailureClass, Policy, ProblemClass, ResolvedClassifier } from './types.js';
import { bad, checkKnobs, show } from './validate.js';

/** Prefix of the problem class of a user classifier. */
export const CUSTOM_PREFIX = 'custom:';

const NAME = /^[a-z0-9-]+$/;

/** Same defaults as most built-in classes: fail after 10 s, one pod is enough. */
const DEFAULT_KNOBS: ClassPolicy = { action: 'fail', afterSeconds: 10, scope: 'any-pod' };

/** Used for a custom class whose classifier is not in the policy (a problem from another policy). */
const UNKNOWN_CUSTOM: ClassPolicy = { action: 'warn', afterSeconds: 0, scope: 'any-pod' };

/** True for `custom:<name>` classes. */
export function isCustomClass(cls: ProblemClass): cls is CustomClass {
  return cls.startsWith(CUSTOM_PREFIX);
}

/** The problem class a classifier produces. */
export function customClassOf(name: string): CustomClass {
  return `${CUSTOM_PREFIX}${name}`;
}

/** The policy of any problem class, built-in or custom. */
export function classPolicyOf(policy: Policy, cls: ProblemClass): ClassPolicy {
  if (!isCustomClass(cls)) return policy.classes[cls];
  const name = cls.slice(CUSTOM_PREFIX.length);
  return policy.classifiers?.find((c) => c.name === name) ?? UNKNOWN_CUSTOM;
}

const SHAPE = '{ name: "migration-failed", classify: ({ pod, container, events }) => ({ reason, explanation }) or undefined }';

/**
 * Validates `raw` (the `classifiers` of a PolicyOverrides) and fills in the default knobs.
 * @throws RolloutTraceError `bad-input` naming the bad value and what is valid.
 */
export function resolveClassifiers(raw: unknown, builtIns: readonly FailureClass[]): ResolvedClassifier[] {
  if (!Array.isArray(raw)) bad(`policy.classifiers is ${show(raw)}; it must be an array of classifiers like [${SHAPE}].`);
  const seen = new Map<string, number>();
  return raw.map((c: unknown, i): ResolvedClassifier => {
    const at = `policy.classifiers[${i}]`;
    if (c === null || typeof c !== 'object' || Array.isArray(c))
      bad(`${at} is ${show(c)}; each classifier must be an object like ${SHAPE}.`);
    const { name, classify } = c as Partial<Classifier>;
    if (typeof name !== 'string' || !NAME.test(name)) {
      bad(
        `${at}.name is ${show(name)}; a classifier name must be a non-empty string of lower-case letters, digits and "-" ` +
          `(e.g. "migration-failed"): it becomes the problem class "custom:<name>".`,
      );
    }
    if ((builtIns as readonly string[]).includes(name)) {
      bad(
        `${at}.name is "${name}", the name of a built-in failure class; choose another name (e.g. "${name}-custom"), ` +
          `or tune the built-in class with policy.classes["${name}"].`,
      );
    }
    const first = seen.get(name);
    if (first !== undefined) {
      bad(
        `${at}.name "${name}" is already used by policy.classifiers[${first}]; classifier names must be unique because each becomes the problem class "custom:${name}".`,
      );
    }
    seen.set(name, i);
    const path = `${at} ("${name}")`;
    if (typeof classify !== 'function') {
      bad(
        `${path}.classify is ${show(classify)}; it must be a synchronous function ({ pod, container, spec, init, events, deployment, now }) => ({ reason, explanation }) or undefined.`,
      );
    }
    if (classify.constructor?.name === 'AsyncFunction') {
      bad(
        `${path}.classify is an async function; classifiers must be synchronous and pure (the core never waits), returning { reason, explanation } or undefined.`,
      );
    }
    const knobs = c as Partial<ClassPolicy>;
    checkKnobs(path, knobs);
    return {
      name,
      // Called on its object, so a rule written as a class method keeps its `this`.
      classify: (input) => classify.call(c, input),
      action: knobs.action ?? DEFAULT_KNOBS.action,
      afterSeconds: knobs.afterSeconds ?? DEFAULT_KNOBS.afterSeconds,
      scope: knobs.scope ?? DEFAULT_KNOBS.scope,
      ...(knobs.minRestarts !== undefined ? { minRestarts: knobs.minRestarts } : {}),
      ...(knobs.tolerate !== undefined ? { tolerate: knobs.tolerate } : {}),
    };
  });
}
