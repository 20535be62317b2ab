/**
 * Label-selector matching for unit tests, written from the Kubernetes rules (not from the code
 * under test): a structured `V1LabelSelector`, and a selector string in the syntax the apiserver
 * parses (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k`, joined by commas).
 */
import type { V1LabelSelector } from '@kubernetes/client-node';

type Labels = Record<string, string>;

/** Whether `labels` match the structured selector (an empty selector matches everything). */
export function matchesLabelSelector(labels: Labels, selector: V1LabelSelector): boolean {
  const pairs = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    pairs &&
    (selector.matchExpressions ?? []).every((e) => {
      const has = Object.hasOwn(labels, e.key);
      switch (e.operator) {
        case 'In':
          return has && (e.values ?? []).includes(labels[e.key]!);
        case 'NotIn':
          return !has || !(e.values ?? []).includes(labels[e.key]!);
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          throw new Error(`unknown operator ${e.operator}`);
      }
    })
  );
}

/** Whether `labels` match a selector string; throws on a string the apiserver would refuse. */
export function matchesSelectorString(labels: Labels, selector: string): boolean {
  return splitRequirements(selector).every((req) => matchesRequirement(labels, req));
}

/** Splits on the commas that are not inside parentheses. */
function splitRequirements(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if ((c === ',' && depth === 0) || i === selector.length) {
      out.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0 || out.some((r) => r === '')) throw new Error(`bad selector "${selector}"`);
  return out;
}

const SET = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^()]*)\)$/;
const EQ = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/;
const EXISTS = /^(!?)([^\s!=(),]+)$/;

function matchesRequirement(labels: Labels, req: string): boolean {
  const set = SET.exec(req);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    const has = Object.hasOwn(labels, set[1]!);
    const inSet = has && values.includes(labels[set[1]!]!);
    return set[2] === 'in' ? inSet : !inSet;
  }
  const eq = EQ.exec(req);
  if (eq) {
    const equal = Object.hasOwn(labels, eq[1]!) && labels[eq[1]!] === eq[3];
    return eq[2] === '!=' ? !equal : equal;
  }
  const exists = EXISTS.exec(req);
  if (exists) return Object.hasOwn(labels, exists[2]!) !== (exists[1] === '!');
  throw new Error(`bad requirement "${req}"`);
}
