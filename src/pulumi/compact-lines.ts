/**
 * The live lines of one trace in a non-interactive `pulumi up` (CI), where the display prints
 * every log call as its own row: at most {@link COMPACT_LINE_LIMIT} lines per Deployment whatever
 * its size. Phase, revision and condition lines pass; per-pod lines are left to the ReplicaSet
 * lines ("40/100 ready"), which pass when a ReplicaSet crosses a quarter of its pods; each distinct
 * problem or event is said once (pod names aside). Pure: lines in, lines out.
 */
import type { StatusLine } from './status-lines.js';

/** The most live lines one trace prints in a non-interactive run (its verdict comes on top). */
export const COMPACT_LINE_LIMIT = 30;

/**
 * The variables by which the Pulumi CLI detects a CI system (pp `sdk/go/common/util/ciutil/detect.go`:
 * any one of them set, or `CI_NAME=codeship`), and then shows its non-interactive display.
 */
const CI_SYSTEM_VARIABLES = [
  'APPVEYOR',
  'CODEBUILD_BUILD_ARN',
  'bamboo_planKey',
  'BITBUCKET_COMMIT',
  'TF_BUILD',
  'BUILDKITE',
  'CIRCLECI',
  'CF_BUILD_URL',
  'DRONE',
  'PULUMI_CI_SYSTEM',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'GO_PIPELINE_LABEL',
  'HUDSON_URL',
  'JENKINS_URL',
  'MAGNUM',
  'SEMAPHORE',
  'TASK_ID',
  'RUN_ID',
  'TEAMCITY_VERSION',
  'TRAVIS',
];

const truthy = (v: string | undefined) => v !== undefined && v !== '' && v.toLowerCase() !== 'false' && v !== '0';

/**
 * Whether the program runs non-interactively, as the Pulumi CLI that runs it decides from the
 * environment it passes on: `PULUMI_NON_INTERACTIVE` or `CI` set (not `false` or `0`), or a CI
 * system the CLI detects ({@link CI_SYSTEM_VARIABLES}, unless `PULUMI_DISABLE_CI_DETECTION` is set).
 * The program cannot see whether the CLI's own terminal is one (its stdio goes to the engine):
 * `compactLines` says so explicitly.
 */
export function nonInteractive(env: Record<string, string | undefined>): boolean {
  if (truthy(env.PULUMI_NON_INTERACTIVE) || truthy(env.CI)) return true;
  if (env.PULUMI_DISABLE_CI_DETECTION) return false;
  return CI_SYSTEM_VARIABLES.some((name) => !!env[name]) || env.CI_NAME === 'codeship';
}

const READY = /^ReplicaSet (\S+) \(.*\): (\d+)\/(\d+) ready/;

/** Picks the lines of one trace for a non-interactive run. */
export class CompactLines {
  private sent = 0;
  private readonly said = new Set<string>();
  /** ReplicaSet -> the last quarter (0-4) of its pods said ready. */
  private readonly quarters = new Map<string, number>();

  constructor(private readonly limit = COMPACT_LINE_LIMIT) {}

  /** The line to print for `line`, or undefined to leave it out. */
  next(line: StatusLine): StatusLine | undefined {
    if (this.sent > this.limit) return undefined;
    if (!this.worthSaying(line.text)) return undefined;
    this.sent++;
    if (this.sent > this.limit) {
      return { severity: 'info', text: `further live lines left out (non-interactive run: at most ${this.limit} per Deployment)` };
    }
    return line;
  }

  private worthSaying(text: string): boolean {
    if (text.startsWith('pod ')) return false;
    const ready = READY.exec(text);
    if (ready) {
      const [, rs, n, of] = ready;
      const quarter = Number(of) === 0 ? 4 : Math.floor((4 * Number(n)) / Number(of));
      if (this.quarters.get(rs!) === quarter) return false;
      this.quarters.set(rs!, quarter);
      return true;
    }
    if (/^(problem|event|log)\b/.test(text)) {
      const key = text.replace(/\b(Pod\/)?[a-z0-9.-]+-[a-z0-9]{5,10}-[a-z0-9]{5}\b/g, '<pod>').replace(/\d+/g, 'N');
      if (this.said.has(key)) return false;
      this.said.add(key);
    }
    return true;
  }
}
