/**
 * Decides, read-only, whether a planned pod template would start a new rollout.
 *
 * The planned template comes from the program's inputs (no server defaults) and the live one
 * from the API server (fully defaulted), so a plain equality would always differ. Instead every
 * value the program declared must equal the live value (a subset match); arrays must have the
 * same length and match element by element, so removing a container, env var or port counts as a
 * change. A value the program stopped declaring but that is still set live is not detected (the
 * server's defaulting makes that undecidable without the field-manager data).
 *
 * Values compare as pk's typed scheme reads them (pk provider/pkg/provider/provider.go L1231 and
 * L1486-1490 normalise the inputs through the typed object, provider/pkg/clients/unstructured.go
 * `Normalize`): a resource quantity by its canonical text (`cpu: 0.5` is the live `500m`,
 * `1024Mi` the live `1Gi`, quantity.ts), an empty list as no list (the typed object omits it);
 * anything else keeps its JSON type, so `"80"` is not `80` (an int-or-string port keeps its type,
 * and an int field refuses a string).
 */
import type { WorkloadKind } from '../core/index.js';
import { parseQuantity } from './quantity.js';

/** One difference, e.g. `spec.containers[nginx].image: "nginx:1.19" → "nginx:1.20"`. */
export interface TemplateChange {
  path: string;
  planned: unknown;
  live: unknown;
  /** The planned inputs held a Pulumi secret: {@link describeChange} never prints the values. */
  secret?: boolean;
}

/** Options of {@link templateChanges}. */
export interface TemplateChangeOptions {
  /** The planned template is (or contains) a Pulumi secret: mark every change secret. */
  secret?: boolean;
  /**
   * The workload whose template it is. A Deployment's controller finds its current ReplicaSet by
   * semantic equality, quantities by value (kubernetes 1.20 pkg/controller/deployment/util
   * `EqualIgnoreHash`, apimachinery `Semantic`), so `64e6` against a live `64M` starts no rollout;
   * the other kinds compare the template's serialised text (a StatefulSet's or DaemonSet's
   * ControllerRevision, pk's diff that replaces a Job), so quantities compare by canonical text.
   */
  kind?: WorkloadKind;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function label(item: unknown, index: number): string {
  return isObject(item) && typeof item.name === 'string' ? item.name : String(index);
}

/**
 * Whether the field at `keys` (object keys from the template's root; an array element adds no
 * key) holds a resource quantity: a container's `resources.limits`/`requests` entry, the pod's
 * `overhead` entry, an `emptyDir.sizeLimit`.
 */
function isQuantityField(keys: readonly string[]): boolean {
  const [a, b, c] = [keys.at(-3), keys.at(-2), keys.at(-1)];
  return (a === 'resources' && (b === 'limits' || b === 'requests')) || b === 'overhead' || (b === 'emptyDir' && c === 'sizeLimit');
}

/** Two quantities, by value or by canonical text; false when either is not one. */
function sameQuantity(planned: unknown, live: unknown, byValue: boolean): boolean {
  if ((typeof planned !== 'string' && typeof planned !== 'number') || (typeof live !== 'string' && typeof live !== 'number')) return false;
  const [p, l] = [parseQuantity(planned), parseQuantity(live)];
  if (!p || !l) return false;
  return byValue ? p.nanos === l.nanos : p.canonical === l.canonical;
}

interface Walk {
  out: TemplateChange[];
  byValue: boolean;
}

function walk(planned: unknown, live: unknown, path: string, keys: string[], w: Walk): void {
  if (planned === undefined || planned === null) return;
  if (Array.isArray(planned)) {
    // The typed object omits an empty list: `args: []` is the live object without args.
    if (planned.length === 0 && (live === undefined || live === null)) return;
    if (!Array.isArray(live) || live.length !== planned.length) {
      w.out.push({ path, planned, live });
      return;
    }
    planned.forEach((item, i) => {
      walk(item, live[i], `${path}[${label(item, i)}]`, keys, w);
    });
    return;
  }
  if (isObject(planned)) {
    if (!isObject(live)) {
      if (Object.keys(planned).length > 0) w.out.push({ path, planned, live });
      return;
    }
    for (const [key, value] of Object.entries(planned)) walk(value, live[key], path ? `${path}.${key}` : key, [...keys, key], w);
    return;
  }
  if (planned === live) return;
  if (isQuantityField(keys) && sameQuantity(planned, live, w.byValue)) return;
  w.out.push({ path, planned, live });
}

/** The declared template values that differ from the live template (empty: no new rollout). */
export function templateChanges(planned: unknown, live: unknown, options: TemplateChangeOptions = {}): TemplateChange[] {
  const out: TemplateChange[] = [];
  walk(planned, live, '', [], { out, byValue: options.kind === 'Deployment' });
  return options.secret ? out.map((change) => ({ ...change, secret: true })) : out;
}

/**
 * Fields whose values often carry credentials (env values, command lines, volume sources): their
 * values are never printed, whatever the program marked secret.
 */
const SENSITIVE_FIELD = /(^|\.)(env|envFrom|args|command|volumes)(\[|\.|$)/;

function isScalar(value: unknown): boolean {
  return value === undefined || value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function short(value: unknown): string {
  const text = value === undefined ? 'unset' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * One line per change, for the preview report and log lines. Only scalar values outside
 * credential-bearing fields (env, envFrom, args, command, volumes) and outside Pulumi secrets are
 * printed; anything else names the path only, e.g. `spec.containers[app].env[DB_PASSWORD].value changed`
 * (objects and arrays could hide such a field).
 */
export function describeChange(change: TemplateChange): string {
  const path = change.path || 'template';
  if (change.secret) return `${path} changed [secret]`;
  if (SENSITIVE_FIELD.test(path) || !isScalar(change.planned) || !isScalar(change.live)) return `${path} changed`;
  return `${path}: ${short(change.live)} → ${short(change.planned)}`;
}
