/**
 * What of a container's log may be printed: redaction (always) and an optional include filter
 * (live streams only). Pure.
 *
 * Redaction cannot know every secret, so it masks the shapes secrets usually take in logs, plus
 * whatever patterns the user adds; values of Secrets are never read to look for them.
 */

/** The mask that replaces a redacted value. */
export const REDACTED = '***';

/** A key whose value is a credential: `password`, `DB_PASSWORD`, `api-key`, `client.secret`... */
const KEY = String.raw`\b((?:[\w.-]*[_.-])?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)["']?\s*[:=]\s*)`;

/** Built-in redactions: the value after a credential-like key, auth headers, URL passwords. */
const DEFAULT_REDACTIONS: Array<[RegExp, string]> = [
  [/\b(authorization\s*[:=]\s*["']?(?:bearer|basic|token)\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  [new RegExp(`${KEY}"[^"]*"`, 'gi'), `$1"${REDACTED}"`],
  [new RegExp(`${KEY}'[^']*'`, 'gi'), `$1'${REDACTED}'`],
  [new RegExp(`${KEY}(?!["']|\\*\\*\\*)[^\\s"',;&]+`, 'gi'), `$1${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+@/gi, `$1${REDACTED}@`],
];

/** Options of {@link compileLogFilter}. */
export interface LogFilterOptions {
  /** Extra patterns to mask; each match is replaced by `***`. */
  redact?: ReadonlyArray<string | RegExp>;
  /** Keep only lines matching this pattern (applied after redaction, so it never matches a secret). */
  grep?: string | RegExp;
}

/** Maps a raw log line to the printable one, or undefined when the include filter drops it. */
export type LogFilter = (line: string) => string | undefined;

/**
 * Compiles the filter. String patterns are regular expressions (like `grep -E`); an invalid one
 * throws an Error naming it.
 */
export function compileLogFilter(options: LogFilterOptions = {}): LogFilter {
  const extra = (options.redact ?? []).map((p) => globalRegExp(p, 'redact'));
  const grep = options.grep === undefined ? undefined : toRegExp(options.grep, 'grep');
  return (line) => {
    let out = line;
    for (const [re, replacement] of DEFAULT_REDACTIONS) out = out.replace(re, replacement);
    for (const re of extra) out = out.replace(re, REDACTED);
    if (grep) {
      grep.lastIndex = 0;
      if (!grep.test(out)) return undefined;
    }
    return out;
  };
}

/** Masks secrets in a line with the default and extra patterns (no include filter). */
export function redactLine(line: string, redact?: ReadonlyArray<string | RegExp>): string {
  return compileLogFilter({ redact })(line) ?? line;
}

function toRegExp(p: string | RegExp, what: string): RegExp {
  if (p instanceof RegExp) return p;
  try {
    return new RegExp(p);
  } catch (err) {
    throw new Error(`${what} pattern ${JSON.stringify(p)} is not a valid regular expression (${(err as Error).message}).`);
  }
}

function globalRegExp(p: string | RegExp, what: string): RegExp {
  const re = toRegExp(p, what);
  if (re.source === '' || re.test(''))
    throw new Error(
      `${what} pattern ${JSON.stringify(String(p))} matches the empty string, so it would mask everything or nothing; give a pattern that matches the secret itself.`,
    );
  return re.global ? re : new RegExp(re.source, `${re.flags}g`);
}
