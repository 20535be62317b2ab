/**
 * Hostile cluster-supplied text, as a container or a controller can write it: terminal escapes,
 * raw control bytes, CI workflow commands, a secret, a 1 MB line. Shared by the sink unit tests and
 * the CLI integration test; {@link RAW_CONTROL} finds any of them that reached the output raw.
 */

/** One string per class of escape that must never reach a terminal or CI log raw. */
export const HOSTILE: Record<string, string> = {
  oscTitle: 'before\u001b]0;pwned-title\u0007after',
  clearScreen: 'wipe\u001b[2Jscreen',
  osc8Link: '\u001b]8;;https://evil.example/\u001b\\click me\u001b]8;;\u001b\\',
  nul: 'nul\u0000byte',
  backspace: 'secret\u0008\u0008\u0008\u0008\u0008\u0008hidden',
  bareCr: 'progress 10%\rDONE overwritten',
  csi8bit: 'c1\u009b31mred\u009b0m',
  otherC1: 'next\u0085line\u008dreverse',
  del: 'del\u007fchar',
  bidi: 'user\u202egnp.exe',
  lineSeparator: 'one\u2028two',
  tab: 'col1\tcol2',
};

/** A log line that is a GitHub Actions workflow command. */
export const GITHUB_COMMAND = '::error::pwned by a log line';
/** The old (v1) form of a workflow command. */
export const GITHUB_V1_COMMAND = '##[error]pwned the v1 way';

/** The termination message: both secrets are masked by the built-in redactions. */
export const SECRET_MESSAGE = 'fatal: auth failed password=hunter2 url=postgres://u:pw@db/x';
/** Secrets of {@link SECRET_MESSAGE} that must never be printed. */
export const SECRETS = ['hunter2', 'u:pw@'];
/** A secret with no tell-tale shape: masked only when the user passes `--redact swordfish\\d+`. */
export const BARE_SECRET = 'connecting with swordfish42 now';

/** Length of the huge line. */
export const HUGE_LENGTH = 1024 * 1024;
/** A 1 MB log line (`x` repeated after a marker). */
export const HUGE_LINE = `HUGE${'x'.repeat(HUGE_LENGTH - 4)}`;

/**
 * Raw bytes that drive a terminal: C0 controls other than tab and LF, DEL, C1, and the invisible
 * line/bidi characters. Test outputs written without colour must not match it.
 */
// biome-ignore format: one character class
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Lines that GitHub Actions would run as a command, except the ones we write on purpose. */
export function strayCommands(output: string): string[] {
  return output.split('\n').filter((l) => {
    const t = l.trimStart();
    if (/^::(error title=Deployment |group::Deployment |endgroup::$)/.test(t)) return false;
    return t.startsWith('::') || l.includes('##[');
  });
}
