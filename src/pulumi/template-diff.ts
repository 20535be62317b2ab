/**
 * Decides, read-only, whether a planned pod template would start a new rollout.
 *
 * The planned template comes from the program's inputs (no server defaults) and the live one
 * from the API server (fully defaulted), so a plain equality would always differ. Instead every
 * value the program declared must equal the live value (a subset match); arrays must have the
 * same length and match element by element, so removing a container, env var or port counts as a
 * change. A value the program stopped declaring but that is still set live is not detected (the
 * server's defaulting makes that undecidable without the field-manager data).
 */

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
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function label(item: unknown, index: number): string {
  return isObject(item) && typeof item.name === 'string' ? item.name : String(index);
}

function sameScalar(planned: unknown, live: unknown): boolean {
  if (planned === live) return true;
  // Quantities and ports: the program may write 80 or "80", the server returns one of them.
  if ((typeof planned === 'number' || typeof planned === 'string') && (typeof live === 'number' || typeof live === 'string')) {
    return String(planned) === String(live);
  }
  return false;
}

function walk(planned: unknown, live: unknown, path: string, out: TemplateChange[]): void {
  if (planned === undefined || planned === null) return;
  if (Array.isArray(planned)) {
    if (!Array.isArray(live) || live.length !== planned.length) {
      out.push({ path, planned, live });
      return;
    }
    planned.forEach((item, i) => {
      walk(item, live[i], `${path}[${label(item, i)}]`, out);
    });
    return;
  }
  if (isObject(planned)) {
    if (!isObject(live)) {
      if (Object.keys(planned).length > 0) out.push({ path, planned, live });
      return;
    }
    for (const [key, value] of Object.entries(planned)) walk(value, live[key], path ? `${path}.${key}` : key, out);
    return;
  }
  if (!sameScalar(planned, live)) out.push({ path, planned, live });
}

/** The declared template values that differ from the live template (empty: no new rollout). */
export function templateChanges(planned: unknown, live: unknown, options: TemplateChangeOptions = {}): TemplateChange[] {
  const out: TemplateChange[] = [];
  walk(planned, live, '', out);
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
