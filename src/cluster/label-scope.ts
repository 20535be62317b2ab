/**
 * Which label selector scopes the shared Pod and ReplicaSet watches of a namespace: ONE selector
 * string that matches every pod and ReplicaSet of every traced Deployment, or `undefined` for a
 * namespace-wide watch. Pure: decides, no I/O.
 *
 * Never narrower than the union of what is traced: a pod of a traced Deployment that the scoped
 * watch would not deliver could hide a failing new pod (a wrong verdict). So only three shapes are
 * scoped; anything else is namespace-wide:
 * - one distinct selector (after dropping selectors implied by a looser one): its own string;
 * - several selectors that are each one `key=value` / `key in (...)` on the same key: `key in (all values)`;
 * - otherwise (different keys, an invalid or empty selector, a Deployment not read yet): `undefined`.
 */
import type { V1LabelSelector } from '@kubernetes/client-node';

/** One requirement of a label selector. */
interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!';
  /** Sorted, distinct (In / NotIn only). */
  values: string[];
  /** The requirement in selector syntax ({@link text}). */
  text: string;
}

/**
 * The selector that covers every selector in `selectors` (one per traced Deployment; `undefined`
 * for a Deployment not read yet), or `undefined` for namespace-wide.
 */
export function scopeSelector(selectors: ReadonlyArray<V1LabelSelector | undefined>): string | undefined {
  if (selectors.length === 0) return undefined;
  const sets: Requirement[][] = [];
  for (const selector of selectors) {
    const reqs = selector && requirementsOf(selector);
    if (!reqs) return undefined;
    sets.push(reqs);
  }
  const distinct = [...new Map(sets.map((r) => [render(r), r])).values()];
  // A selector whose requirements include all of another's (fewer) matches a subset of its objects.
  const shortest = Math.min(...distinct.map((r) => r.length));
  const loosest = distinct.filter((r) => {
    if (r.length === shortest) return true;
    const own = new Set(r.map((x) => x.text));
    return !distinct.some((o) => o.length < r.length && o.every((req) => own.has(req.text)));
  });
  if (loosest.length === 1) return render(loosest[0]!);
  return sameKeyUnion(loosest);
}

/**
 * The scope of a source's Pod and ReplicaSet watches over time: it only widens (a Deployment
 * that stops being traced keeps its place, so subscribers coming and going cause no re-lists),
 * and once namespace-wide it stays so.
 */
export class WatchScope {
  private readonly included = new Map<string, V1LabelSelector>();
  private wide = false;
  /** The label selector now (undefined: namespace-wide); meaningful once {@link widen} was called. */
  selector: string | undefined;

  /**
   * Widens the scope to also cover `traced` (the selectors of the traced Deployments; `undefined`
   * for one not read yet); returns true when the selector changed.
   */
  widen(traced: ReadonlyArray<V1LabelSelector | undefined>): boolean {
    if (this.wide) return false;
    // Already covered (the usual case: a traced Deployment's status update): nothing to recompute.
    if (this.included.size > 0 && traced.every((s) => s !== undefined && this.included.has(selectorString(s) ?? ''))) return false;
    const before = this.included.size === 0 ? null : this.selector;
    const all = [...this.included.values(), ...traced];
    const next = scopeSelector(all);
    if (next === undefined) {
      this.wide = true;
      this.selector = undefined;
      return before !== undefined;
    }
    for (const selector of traced) this.included.set(selectorString(selector!)!, selector!);
    this.selector = next;
    return next !== before;
  }
}

/** The string of one label selector (Kubernetes syntax), or `undefined` if empty or invalid. */
export function selectorString(selector: V1LabelSelector): string | undefined {
  const reqs = requirementsOf(selector);
  return reqs && render(reqs);
}

/** `key in (a,b,...)` when every selector is one positive requirement on the same key. */
function sameKeyUnion(sets: Requirement[][]): string | undefined {
  const key = sets[0]?.[0]?.key;
  if (key === undefined || !sets.every((r) => r.length === 1 && r[0]!.op === 'in' && r[0]!.key === key)) return undefined;
  const values = [...new Set(sets.flatMap((r) => r[0]!.values))].sort();
  return requirement(key, 'in', values).text;
}

/** The requirements of `selector`, sorted and distinct; `undefined` if empty or anything is invalid. */
function requirementsOf(selector: V1LabelSelector): Requirement[] | undefined {
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!validKey(key) || !validValue(value)) return undefined;
    reqs.push(requirement(key, 'in', [value]));
  }
  for (const e of selector.matchExpressions ?? []) {
    const values = e.values ?? [];
    if (!validKey(e.key) || !values.every(validValue)) return undefined;
    const op = OPERATORS[e.operator];
    if (op === undefined || (op === 'in' || op === 'notin' ? values.length === 0 : values.length > 0)) return undefined;
    reqs.push(requirement(e.key, op, [...new Set(values)].sort()));
  }
  if (reqs.length === 0) return undefined;
  const byText = new Map(reqs.map((r) => [r.text, r]));
  return [...byText.keys()].sort().map((t) => byText.get(t)!);
}

function requirement(key: string, op: Requirement['op'], values: string[]): Requirement {
  return { key, op, values, text: text(key, op, values) };
}

const OPERATORS: Record<string, Requirement['op'] | undefined> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function render(reqs: readonly Requirement[]): string {
  return reqs.map((r) => r.text).join(',');
}

/** One requirement in Kubernetes label-selector syntax (`k=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k`). */
function text(key: string, op: Requirement['op'], values: readonly string[]): string {
  switch (op) {
    case 'in':
      return values.length === 1 ? `${key}=${values[0]}` : `${key} in (${values.join(',')})`;
    case 'notin':
      return `${key} notin (${values.join(',')})`;
    case 'exists':
      return key;
    case '!':
      return `!${key}`;
  }
}

/** A label name: at most 63 characters, alphanumeric at both ends, `-`, `_`, `.` inside. */
const NAME = /^(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A DNS-1123 subdomain (the optional key prefix). */
const PREFIX = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validKey(key: unknown): key is string {
  if (typeof key !== 'string') return false;
  const slash = key.indexOf('/');
  if (slash < 0) return NAME.test(key);
  return PREFIX.test(key.slice(0, slash)) && NAME.test(key.slice(slash + 1));
}

/** A label value: empty, or a label name (so it needs no escaping in a selector). */
function validValue(value: unknown): value is string {
  return value === '' || (typeof value === 'string' && NAME.test(value));
}
