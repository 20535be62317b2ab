/**
 * `rollout-trace replay FILE [-o tty|plain|json] [--speed N | --instant] [policy flags]`: parsing
 * (node:util parseArgs) into {@link ReplayOptions}; every mistake is a {@link UsageError}.
 */
import { parseArgs } from 'node:util';
import type { PolicyOverrides } from '../core/index.js';
import { ambiguousValueMessage, joinDashValues } from './flag-values.js';
import { POLICY_OPTIONS, policyFromFlags } from './policy-flags.js';
import { UsageError } from './usage-error.js';

/** What `rollout-trace replay` was asked to do. */
export interface ReplayOptions {
  file: string;
  output: 'auto' | 'tty' | 'plain' | 'json';
  /** Replay at this multiple of the recorded pace; undefined: at once (`--instant`, the default). */
  speed?: number;
  /** Policy flags over the recorded policy: "what would `--fail-after crash-loop=60s` have said?" */
  policy?: PolicyOverrides;
  pulumiMessages: boolean;
  /** `--report FILE.html`: the HTML report of the replayed traces. */
  report?: string;
  /** `--junit FILE`: a JUnit XML report, one test case per workload. */
  junit?: string;
}

/** The flags `replay` takes: the source of truth for its `--help` and docs/cli.md. */
export const REPLAY_OPTIONS = {
  output: { type: 'string', short: 'o' },
  speed: { type: 'string' },
  instant: { type: 'boolean' },
  ...POLICY_OPTIONS,
  'pulumi-messages': { type: 'boolean' },
  report: { type: 'string' },
  junit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OUTPUTS = ['auto', 'tty', 'plain', 'json'] as const;

/** Parses the arguments after `replay`; `'help'` for `--help` / `-h` (whatever else is there). */
export function parseReplayArgs(argv: string[]): ReplayOptions | 'help' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    const message = (err as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message);
    throw new UsageError(
      unknown
        ? `rollout-trace replay does not take ${unknown[1]}; it takes -o, --speed N or --instant, --report FILE.html and the policy flags.`
        : (ambiguousValueMessage(message, 'rollout-trace replay') ?? `${message.replace(/\.$/, '')}; see rollout-trace --help.`),
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) return 'help';
  if (positionals.length !== 1) {
    throw new UsageError(
      `rollout-trace replay takes one recording file (written by --record); got ${positionals.length === 0 ? 'none' : positionals.length}.`,
    );
  }
  const output = values.output ?? 'auto';
  if (!(OUTPUTS as readonly string[]).includes(output))
    throw new UsageError(`--output "${output}" is not supported; use one of ${OUTPUTS.join(', ')}.`);
  if (values.instant === true && values.speed !== undefined) throw new UsageError('--speed and --instant contradict each other; keep one.');
  const speed = values.speed === undefined ? undefined : Number(values.speed);
  if (speed !== undefined && (!Number.isFinite(speed) || speed <= 0 || speed > 1000)) {
    throw new UsageError(`--speed "${values.speed}" must be a number above 0 and at most 1000 (2: twice the recorded pace).`);
  }
  const policy = policyFromFlags(values);
  return {
    file: positionals[0]!,
    output: output as ReplayOptions['output'],
    ...(speed !== undefined ? { speed } : {}),
    ...(policy !== undefined ? { policy } : {}),
    pulumiMessages: values['pulumi-messages'] === true,
    ...(values.report !== undefined ? { report: values.report } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
  };
}

function parse(argv: string[]) {
  return parseArgs({ args: joinDashValues(argv, REPLAY_OPTIONS), options: REPLAY_OPTIONS, allowPositionals: true, strict: true });
}
