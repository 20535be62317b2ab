/**
 * What the positional arguments name, kubectl-style: `KIND NAME...` (`deploy web api`, `sts db`),
 * `KIND/NAME...` mixed in one call (`deploy/web sts/db job/migrate`), or `KIND -l SELECTOR`
 * (`all -l SELECTOR` for every kind). Kinds are spelled as kubectl accepts them.
 */
import { KIND_FACTS, kindSpelled, WORKLOAD_KINDS, type WorkloadKind } from '../core/index.js';
import { UsageError } from './usage-error.js';

/** One workload to trace. */
export interface Target {
  kind: WorkloadKind;
  name: string;
}

/** The valid kinds, in words, for usage errors: `deploy (deployment), sts (statefulset), ds (daemonset), job`. */
export const VALID_KINDS = WORKLOAD_KINDS.map((k) => {
  const { short } = KIND_FACTS[k];
  const singular = k.toLowerCase();
  return short === singular ? short : `${short} (${singular})`;
}).join(', ');

/** The kind a kubectl spelling names (case-insensitive), or undefined. */
export const kindNamed = kindSpelled;

function unknownKind(kind: string, arg: string): UsageError {
  const where = arg === kind ? '' : ` in "${arg}"`;
  return new UsageError(
    `unknown kind "${kind}"${where}; valid kinds are ${VALID_KINDS} (kubectl's names), used as ` +
      'rollout-trace KIND NAME [NAME...], rollout-trace KIND/NAME [KIND/NAME...] or rollout-trace KIND|all -l SELECTOR.',
  );
}

/** `KIND/NAME` as a target (`name` validated later by the tracker, like the library's). */
function slashed(arg: string): Target {
  const slash = arg.indexOf('/');
  const kindWord = arg.slice(0, slash);
  const kind = kindNamed(kindWord);
  if (!kind) throw unknownKind(kindWord, arg);
  return { kind, name: arg.slice(slash + 1) };
}

/** What the positionals ask for: named targets, or the kinds a selector picks from. */
export type Asked = { targets: Target[] } | { selectorKinds: WorkloadKind[] };

/**
 * Parses the positionals (`positionals[0]` is a kind, `all`, or a `KIND/NAME`).
 *
 * @throws UsageError naming the bad argument and what is valid.
 */
export function parseTargets(positionals: readonly string[], selector: string | undefined): Asked {
  const [first, ...rest] = positionals;
  if (first === undefined) {
    throw new UsageError(
      `no workload named; usage: rollout-trace KIND NAME [NAME...], rollout-trace KIND/NAME [KIND/NAME...] or rollout-trace KIND|all -l SELECTOR, KIND one of ${VALID_KINDS} (see rollout-trace --help).`,
    );
  }
  if (selector !== undefined && selector.trim() === '')
    throw new UsageError('--selector (-l) is empty; give a label selector such as -l app=web or -l "tier in (web,api)".');
  const firstKind = first.includes('/') ? undefined : first === 'all' ? 'all' : kindNamed(first);
  if (firstKind === undefined && !first.includes('/')) throw unknownKind(first, first);
  const names = firstKind === undefined ? positionals : rest;
  if (selector !== undefined) {
    if (names.length > 0) {
      throw new UsageError(`give names or a label selector, not both (names ${names.join(', ')} and -l ${JSON.stringify(selector)}).`);
    }
    return { selectorKinds: firstKind === 'all' ? [...WORKLOAD_KINDS] : [firstKind as WorkloadKind] };
  }
  if (firstKind === 'all') throw new UsageError('"all" needs a label selector: rollout-trace all -l SELECTOR.');
  if (names.length === 0) {
    throw new UsageError(
      `no ${firstKind} named; usage: rollout-trace ${first} NAME [NAME...] or rollout-trace ${first} -l SELECTOR (for example: rollout-trace deploy nginx -n web).`,
    );
  }
  const targets = names.map((n) => (n.includes('/') ? slashed(n) : { kind: firstKind as WorkloadKind, name: n }));
  const seen = new Set<string>();
  return { targets: targets.filter((t) => !seen.has(`${t.kind}/${t.name}`) && seen.add(`${t.kind}/${t.name}`)) };
}
