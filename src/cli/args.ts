/**
 * Command-line parsing (node:util parseArgs) into {@link CliOptions}. Every mistake becomes a
 * {@link UsageError} whose message names the bad value and what would be valid.
 */
import { parseArgs } from 'node:util';
import type { FailureClass, PolicyOverrides, SuccessCriterion } from '../core/index.js';
import { compileLogFilter, FAILURE_CLASSES } from '../core/index.js';
import { durationProblem } from '../long-timer.js';
import type { LogOptions } from '../track/index.js';
import { parseDuration } from './duration.js';

/** A command-line mistake (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What `rollout-trace deploy ...` was asked to do. */
export interface CliOptions {
  command: 'deploy';
  /** The Deployments to trace; empty when `selector` picks them. */
  names: string[];
  /** A label selector (`-l`) choosing the Deployments instead of names. */
  selector?: string;
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
}

/** The parse result: options to run, or a request for help/version. */
export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'version' };

/** The option definitions `node:util` parseArgs uses: the source of truth for the flags (README table and `--help` are tested against it). */
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
  redact: { type: 'string', multiple: true },
  'fail-after': { type: 'string', multiple: true },
  'warn-only': { type: 'string', multiple: true },
  tolerate: { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  success: { type: 'string' },
  settle: { type: 'string' },
  watch: { type: 'boolean', short: 'w' },
  'watch-for': { type: 'string' },
  'pulumi-messages': { type: 'boolean' },
  'wait-for-creation': { type: 'string' },
  'min-generation': { type: 'string' },
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
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(rephraseParseError((err as Error).message));
  }
}

/** Parses `argv` (without node and script). */
export function parseCli(argv: string[]): ParsedArgs {
  const { values, positionals } = parseOrUsageError(argv);
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const [command, ...names] = positionals;
  if (command === undefined)
    throw new UsageError('no command given; usage: rollout-trace deploy NAME [NAME...] [flags] (see rollout-trace --help).');
  if (command === 'help') return { kind: 'help' };
  const normalized = ['deploy', 'deployment', 'deployments', 'deployment.apps'].includes(command) ? 'deploy' : undefined;
  if (normalized === undefined)
    throw new UsageError(`unknown command "${command}"; the only command is "deploy" (rollout-trace deploy NAME [NAME...]).`);
  const selector = values.selector;
  if (selector !== undefined && selector.trim() === '')
    throw new UsageError('--selector (-l) is empty; give a label selector such as -l app=web or -l "tier in (web,api)".');
  if (selector !== undefined && names.length > 0) {
    throw new UsageError(
      `give Deployment names or a label selector, not both (names ${names.join(', ')} and -l ${JSON.stringify(selector)}).`,
    );
  }
  if (names.length === 0 && selector === undefined) {
    throw new UsageError(
      'no Deployment named; usage: rollout-trace deploy NAME [NAME...] or rollout-trace deploy -l SELECTOR (for example: rollout-trace deploy nginx -n web).',
    );
  }
  // Names and the namespace are validated by the tracker (resolveTrackOptions), so the CLI rejects
  // exactly what the library rejects, with the same wording.
  const cleaned = names.map((n) => n.replace(/^deployments?(\.apps)?\//, ''));

  const output = values.output ?? 'auto';
  if (!(OUTPUTS as readonly string[]).includes(output))
    throw new UsageError(`--output "${output}" is not supported; use one of ${OUTPUTS.join(', ')}.`);

  let timeoutSeconds: number | undefined;
  if (values.timeout !== undefined) timeoutSeconds = positiveDuration('--timeout', values.timeout);
  let noProgressTimeoutSeconds: number | undefined;
  if (values['no-progress-timeout'] !== undefined)
    noProgressTimeoutSeconds = positiveDuration('--no-progress-timeout', values['no-progress-timeout']);
  let watchSeconds: number | undefined;
  if (values['watch-for'] !== undefined) watchSeconds = positiveDuration('--watch-for', values['watch-for']);

  // Short by default: a CLI user usually typed an existing name (or just ran kubectl apply).
  let waitForCreationSeconds = 5;
  if (values['wait-for-creation'] !== undefined) {
    const seconds = parseDuration(values['wait-for-creation']);
    if (seconds === undefined)
      throw new UsageError(
        `--wait-for-creation "${values['wait-for-creation']}" is not a duration; use seconds or a Go-style duration such as 30s.`,
      );
    waitForCreationSeconds = withinRange('--wait-for-creation', values['wait-for-creation'], seconds);
  }

  let minGeneration: number | undefined;
  if (values['min-generation'] !== undefined) {
    minGeneration = Number(values['min-generation']);
    if (!Number.isInteger(minGeneration) || minGeneration < 1) {
      throw new UsageError(
        `--min-generation "${values['min-generation']}" must be a whole number >= 1 (a Deployment's metadata.generation).`,
      );
    }
  }

  let logs: CliOptions['logs'] = { tailLines: 20 };
  if (values['log-lines'] !== undefined) {
    const n = Number(values['log-lines']);
    if (!Number.isInteger(n) || n < 1 || n > 10_000)
      throw new UsageError(`--log-lines "${values['log-lines']}" must be a whole number between 1 and 10000.`);
    logs = { tailLines: n };
  }
  const redact = values.redact ?? [];
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
  if (values['no-logs'] === true) {
    if (follow) throw new UsageError('--no-logs and --follow-logs contradict each other; keep one.');
    logs = false;
  }

  return {
    kind: 'run',
    options: {
      command: 'deploy',
      names: [...new Set(cleaned)],
      ...(selector !== undefined ? { selector } : {}),
      namespace: values.namespace,
      context: values.context,
      kubeconfig: values.kubeconfig,
      timeoutSeconds,
      ...(noProgressTimeoutSeconds !== undefined ? { noProgressTimeoutSeconds } : {}),
      output: output as CliOptions['output'],
      logs,
      redact,
      policy: policyOverrides(
        values['fail-after'] ?? [],
        values['warn-only'] ?? [],
        values.ignore ?? [],
        values.tolerate ?? [],
        values.success,
        values.settle,
      ),
      watch: values.watch === true || watchSeconds !== undefined,
      watchSeconds,
      pulumiMessages: values['pulumi-messages'] === true,
      waitForCreationSeconds,
      ...(minGeneration !== undefined ? { minGeneration } : {}),
    },
  };
}

function positiveDuration(flag: string, text: string): number {
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds <= 0) {
    throw new UsageError(`${flag} "${text}" is not a duration; use seconds or a Go-style duration such as 90s, 5m or 1m30s.`);
  }
  return withinRange(flag, text, seconds);
}

/** Any duration works (long ones too), up to the longest one a timer can represent. */
function withinRange(flag: string, text: string, seconds: number): number {
  const problem = durationProblem(seconds);
  if (problem) throw new UsageError(`${flag} "${text}" cannot be used: ${problem}; use a duration such as 90s, 5m, 1m30s or 72h.`);
  return seconds;
}

function failureClass(flag: string, name: string): FailureClass {
  if (!(FAILURE_CLASSES as readonly string[]).includes(name)) {
    throw new UsageError(`${flag} names an unknown failure class "${name}"; valid classes are ${FAILURE_CLASSES.join(', ')}.`);
  }
  return name as FailureClass;
}

function policyOverrides(
  failAfter: string[],
  warnOnly: string[],
  ignore: string[],
  tolerate: string[],
  success: string | undefined,
  settle: string | undefined,
): PolicyOverrides | undefined {
  const classes: NonNullable<PolicyOverrides['classes']> = {};
  for (const spec of failAfter) {
    const m = /^([a-z-]+)=(.+)$/.exec(spec);
    if (!m)
      throw new UsageError(
        `--fail-after "${spec}" must look like CLASS=SECONDS, e.g. --fail-after crash-loop=30 or --fail-after image-pull-transient=5m.`,
      );
    const cls = failureClass('--fail-after', m[1]!);
    const seconds = parseDuration(m[2]!);
    if (seconds === undefined)
      throw new UsageError(`--fail-after ${cls}="${m[2]}" is not a duration; use seconds or a Go-style duration such as 30s or 2m.`);
    classes[cls] = { ...classes[cls], action: 'fail', afterSeconds: withinRange(`--fail-after ${cls}`, m[2]!, seconds) };
  }
  for (const spec of tolerate) {
    const m = /^([a-z-]+)=(.*)$/.exec(spec);
    if (!m)
      throw new UsageError(
        `--tolerate "${spec}" must look like CLASS=PODS, e.g. --tolerate crash-loop=1 (one crashing pod does not fail the rollout; two do).`,
      );
    const cls = failureClass('--tolerate', m[1]!);
    if (!/^\d{1,6}$/.test(m[2]!))
      throw new UsageError(`--tolerate ${cls}="${m[2]}" is not a number of pods; use an integer >= 0, e.g. --tolerate ${cls}=1.`);
    classes[cls] = { ...classes[cls], tolerate: Number(m[2]) };
  }
  for (const name of warnOnly) classes[failureClass('--warn-only', name)] = { action: 'warn' };
  for (const name of ignore) classes[failureClass('--ignore', name)] = { action: 'ignore' };
  const criterion = success === undefined ? undefined : successCriterion(success);
  const settleSeconds = settle === undefined ? undefined : parseDuration(settle);
  if (settle !== undefined && settleSeconds === undefined)
    throw new UsageError(`--settle "${settle}" is not a duration; use seconds or a Go-style duration such as 0, 5s or 30s.`);
  if (Object.keys(classes).length === 0 && criterion === undefined && settleSeconds === undefined) return undefined;
  return {
    ...(Object.keys(classes).length > 0 ? { classes } : {}),
    ...(criterion ? { success: criterion } : {}),
    ...(settleSeconds !== undefined ? { settleSeconds } : {}),
  };
}

function successCriterion(text: string): SuccessCriterion {
  if (text === 'full') return { mode: 'full' };
  if (text === 'maxUnavailable') return { mode: 'maxUnavailable' };
  const m = /^(\d{1,3})%$/.exec(text);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 100) return { mode: 'percent', percent: Number(m[1]) };
  if (/^\d{1,6}$/.test(text) && Number(text) >= 1) return { mode: 'pods', pods: Number(text) };
  throw new UsageError(
    `--success "${text}" is not supported; use full (Pulumi's predicate, the default), maxUnavailable, a percentage of ready pods such as 75%, or a number of ready pods such as 2.`,
  );
}

/** parseArgs' messages mention internals ("ERR_PARSE_ARGS..."); keep the useful part. */
function rephraseParseError(message: string): string {
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown flag ${unknown[1]}; see rollout-trace --help for the flags.`;
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `flag ${missing[1]!.replace(/^-\w, /, '').replace(/ <value>$/, '')} needs a value; see rollout-trace --help.`;
  return `${message.replace(/\.$/, '')}; see rollout-trace --help.`;
}
