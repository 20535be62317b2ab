/**
 * Command-line parsing (node:util parseArgs) into {@link CliOptions}. Every mistake becomes a
 * {@link UsageError} whose message names the bad value and what would be valid.
 */
import { parseArgs } from 'node:util';
import type { PolicyOverrides, WorkloadKind } from '../core/index.js';
import { compileLogFilter } from '../core/index.js';
import type { LogOptions } from '../track/index.js';
import { durationInRange, parseDuration, positiveDurationFlag } from './duration.js';
import { ambiguousValueMessage, joinDashValues } from './flag-values.js';
import { POLICY_OPTIONS, policyFromFlags } from './policy-flags.js';
import { parseTargets, type Target } from './targets.js';
import { UsageError } from './usage-error.js';

/** What `rollout-trace KIND NAME...` was asked to do. */
export interface CliOptions {
  /** The workloads to trace; empty when `selector` picks them. */
  targets: Target[];
  /** A label selector (`-l`) choosing the workloads of {@link selectorKinds} instead of names. */
  selector?: string;
  /** The kinds the selector picks from (`all`: every kind). */
  selectorKinds?: WorkloadKind[];
  namespace?: string;
  context?: string;
  kubeconfig?: string;
  timeoutSeconds?: number;
  /** Give up when nothing moved for this long (the tracker's `noProgressTimeoutSeconds`). */
  noProgressTimeoutSeconds?: number;
  output: 'auto' | 'tty' | 'plain' | 'json';
  logs: false | LogOptions;
  /** `--redact`: masked in every cluster-supplied string (log lines, messages, events), also with `--no-logs`. */
  redact: string[];
  policy?: PolicyOverrides;
  /** Keep tracing after the verdicts; `watchSeconds` bounds it (undefined: until Ctrl-C). */
  watch: boolean;
  watchSeconds?: number;
  pulumiMessages: boolean;
  /** How long a Deployment that does not exist (yet) is waited for. */
  waitForCreationSeconds: number;
  /** Ignore the Deployment until its `metadata.generation` reaches this (the change just applied). */
  minGeneration?: number;
  /** `--record FILE`: every trace recorded into FILE, for `rollout-trace replay`. */
  record?: string;
  /** `--report FILE.html`: the HTML report of the traces, written once they ended. */
  report?: string;
  /** `--junit FILE`: a JUnit XML report, one test case per workload. */
  junit?: string;
}

/** The parse result: options to run, or a request for help/version. */
export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'version' };

/** The option definitions `node:util` parseArgs uses: the source of truth for the flags (docs/cli.md's table and `--help` are tested against it). */
export const OPTIONS = {
  namespace: { type: 'string', short: 'n' },
  selector: { type: 'string', short: 'l' },
  context: { type: 'string' },
  kubeconfig: { type: 'string' },
  timeout: { type: 'string' },
  'no-progress-timeout': { type: 'string' },
  output: { type: 'string', short: 'o' },
  'no-logs': { type: 'boolean' },
  'log-lines': { type: 'string' },
  'follow-logs': { type: 'boolean' },
  'log-grep': { type: 'string' },
  'log-container': { type: 'string', multiple: true },
  'logs-on-success': { type: 'boolean' },
  redact: { type: 'string', multiple: true },
  ...POLICY_OPTIONS,
  watch: { type: 'boolean', short: 'w' },
  'watch-for': { type: 'string' },
  'pulumi-messages': { type: 'boolean' },
  'wait-for-creation': { type: 'string' },
  'min-generation': { type: 'string' },
  record: { type: 'string' },
  report: { type: 'string' },
  junit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

const OUTPUTS = ['auto', 'tty', 'plain', 'json'] as const;

function checkPattern(flag: string, pattern: string, compile: () => unknown): void {
  try {
    compile();
  } catch (err) {
    throw new UsageError(`${flag} ${JSON.stringify(pattern)}: ${(err as Error).message.replace(/^\w+ pattern "[^"]*" /, '')}`);
  }
}

function parseOrUsageError(argv: string[]) {
  try {
    return parseArgs({ args: joinDashValues(argv, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(rephraseParseError((err as Error).message));
  }
}

type Values = ReturnType<typeof parseOrUsageError>['values'];

/** Parses `argv` (without node and script). */
export function parseCli(argv: string[]): ParsedArgs {
  const { values, positionals } = parseOrUsageError(argv);
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  if (positionals[0] === 'help') return { kind: 'help' };
  const { selector } = values;
  const asked = parseTargets(positionals, selector);
  const output = values.output ?? 'auto';
  if (!(OUTPUTS as readonly string[]).includes(output))
    throw new UsageError(`--output "${output}" is not supported; use one of ${OUTPUTS.join(', ')}.`);
  const duration = (flag: string, text: string | undefined) => (text === undefined ? undefined : positiveDurationFlag(flag, text));
  const timeoutSeconds = duration('--timeout', values.timeout);
  const noProgressTimeoutSeconds = duration('--no-progress-timeout', values['no-progress-timeout']);
  const watchSeconds = duration('--watch-for', values['watch-for']);
  const waitForCreationSeconds = waitForCreation(values['wait-for-creation']);
  const minGeneration = minGenerationOf(values['min-generation']);
  const redact = values.redact ?? [];
  const logs = logOptions(values, redact);
  const policy = policyFromFlags(values);
  return {
    kind: 'run',
    options: {
      targets: 'targets' in asked ? asked.targets : [],
      ...(selector !== undefined && 'selectorKinds' in asked ? { selector, selectorKinds: asked.selectorKinds } : {}),
      namespace: values.namespace,
      context: values.context,
      kubeconfig: values.kubeconfig,
      timeoutSeconds,
      ...(noProgressTimeoutSeconds !== undefined ? { noProgressTimeoutSeconds } : {}),
      output: output as CliOptions['output'],
      logs,
      redact,
      policy,
      watch: values.watch === true || watchSeconds !== undefined,
      watchSeconds,
      pulumiMessages: values['pulumi-messages'] === true,
      waitForCreationSeconds,
      ...(minGeneration !== undefined ? { minGeneration } : {}),
      ...(values.record !== undefined ? { record: values.record } : {}),
      ...(values.report !== undefined ? { report: values.report } : {}),
      ...(values.junit !== undefined ? { junit: values.junit } : {}),
    },
  };
}

/** `--wait-for-creation`: zero allowed. Short by default: a CLI user usually typed an existing name (or just ran kubectl apply). */
function waitForCreation(text: string | undefined): number {
  if (text === undefined) return 5;
  const seconds = parseDuration(text);
  if (seconds === undefined)
    throw new UsageError(`--wait-for-creation "${text}" is not a duration; use seconds or a Go-style duration such as 30s.`);
  return durationInRange('--wait-for-creation', text, seconds);
}

function minGenerationOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const minGeneration = Number(text);
  if (!Number.isInteger(minGeneration) || minGeneration < 1) {
    throw new UsageError(`--min-generation "${text}" must be a whole number >= 1 (a Deployment's metadata.generation).`);
  }
  return minGeneration;
}

/** The log flags: tails (`--log-lines`, `--no-logs`), `--redact`, the live stream and its filters. */
function logOptions(values: Values, redact: string[]): CliOptions['logs'] {
  let logs: CliOptions['logs'] = { tailLines: 20 };
  if (values['log-lines'] !== undefined) {
    const n = Number(values['log-lines']);
    if (!Number.isInteger(n) || n < 1 || n > 10_000)
      throw new UsageError(`--log-lines "${values['log-lines']}" must be a whole number between 1 and 10000.`);
    logs = { tailLines: n };
  }
  for (const p of redact) checkPattern('--redact', p, () => compileLogFilter({ redact: [p] }));
  if (redact.length > 0) logs = { ...logs, redact };
  const grep = values['log-grep'];
  if (grep !== undefined) checkPattern('--log-grep', grep, () => compileLogFilter({ grep }));
  const containers = values['log-container'] ?? [];
  const follow = values['follow-logs'] === true;
  if (!follow && (grep !== undefined || containers.length > 0)) {
    throw new UsageError(
      `${grep !== undefined ? '--log-grep' : '--log-container'} filters the live log stream, which is off; add --follow-logs.`,
    );
  }
  if (follow) logs = { ...logs, follow: { ...(grep !== undefined ? { grep } : {}), ...(containers.length ? { containers } : {}) } };
  if (values['logs-on-success'] === true) logs = { ...logs, onSuccess: true };
  if (values['no-logs'] === true) {
    if (follow) throw new UsageError('--no-logs and --follow-logs contradict each other; keep one.');
    if (values['logs-on-success'] === true) throw new UsageError('--no-logs and --logs-on-success contradict each other; keep one.');
    logs = false;
  }
  return logs;
}

/** parseArgs' messages mention internals ("ERR_PARSE_ARGS..."); keep the useful part. */
function rephraseParseError(message: string): string {
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown flag ${unknown[1]}; see rollout-trace --help for the flags.`;
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `flag ${missing[1]!.replace(/^-\w, /, '').replace(/ <value>$/, '')} needs a value; see rollout-trace --help.`;
  const ambiguous = ambiguousValueMessage(message, 'rollout-trace');
  if (ambiguous) return ambiguous;
  return `${message.replace(/\.$/, '')}; see rollout-trace --help.`;
}
