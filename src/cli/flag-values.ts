/**
 * What node:util's parseArgs gets wrong for us: a flag's value that starts with a dash
 * (`--success -1`, `--timeout -5m`) is refused as "ambiguous", in three lines that never name
 * what would be valid. A value that reads as a negative number is joined to its flag
 * (`--success=-1`), so the flag's own check names the value and what it takes; a flag followed
 * by another flag is a flag without a value.
 */

/** The parseArgs option definitions, as far as this module reads them. */
type Options = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string }>>;

/** A token that reads as a negative number: `-1`, `-5m`, `-10%`, `-.5`. */
const NEGATIVE = /^-\.?\d/;

/**
 * `argv` with each string flag that is followed by a negative number written `--flag=-N`
 * (short flags too: `-t -5` becomes `--timeout=-5`).
 */
export function joinDashValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = stringFlagName(token, options);
    const next = argv[i + 1];
    if (name !== undefined && next !== undefined && NEGATIVE.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(token);
    }
  }
  return out;
}

/** The long name of the string flag `token` is (`--timeout`, `-t`), if it is one. */
function stringFlagName(token: string, options: Options): string | undefined {
  if (token.startsWith('--')) {
    const name = token.slice(2);
    return options[name]?.type === 'string' ? name : undefined;
  }
  if (/^-[^-]$/.test(token)) {
    return Object.entries(options).find(([, o]) => o.type === 'string' && o.short === token[1])?.[0];
  }
  return undefined;
}

/**
 * parseArgs' "argument is ambiguous" message, said in one sentence: the flag was followed by
 * another flag, so it has no value. Undefined for any other message.
 */
export function ambiguousValueMessage(message: string, command: string): string | undefined {
  const m = /Option '([^']+)' argument is ambiguous/.exec(message);
  if (!m) return undefined;
  const flag = m[1]!.replace(/^-\w, /, '').replace(/ <value>$/, '');
  return `flag ${flag} needs a value and was followed by another flag; write ${flag} VALUE (a value that starts with a dash: ${flag}=-VALUE); see ${command} --help.`;
}
