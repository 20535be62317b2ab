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
 * How the Pulumi CLI detects a CI system, and then shows its non-interactive display: pp
 * `sdk/go/common/util/ciutil/detect.go` `detectors` at pulumi/pulumi 1b5949891b3c (detect.go last
 * changed in bd2962ec26f3). A system is detected when one of its `set` variables is non-empty, or one
 * of its `equals` variables has exactly that value (systems.go `baseCI.IsCI`).
 */
const CI_DETECTORS: readonly { system: string; set?: readonly string[]; equals?: Readonly<Record<string, string>> }[] = [
  { system: 'generic (PULUMI_CI_SYSTEM)', set: ['PULUMI_CI_SYSTEM'] },
  { system: 'AppVeyor', set: ['APPVEYOR'] },
  { system: 'AWS CodeBuild', set: ['CODEBUILD_BUILD_ARN'] },
  { system: 'Atlassian Bamboo', set: ['bamboo_planKey'] },
  { system: 'Bitbucket Pipelines', set: ['BITBUCKET_COMMIT'] },
  { system: 'Azure Pipelines', set: ['TF_BUILD'] },
  { system: 'Buildkite', set: ['BUILDKITE'] },
  { system: 'CircleCI', set: ['CIRCLECI'] },
  { system: 'Codefresh', set: ['CF_BUILD_URL'] },
  { system: 'Codeship', equals: { CI_NAME: 'codeship' } },
  { system: 'Drone', set: ['DRONE'] },
  { system: 'GitHub Actions', set: ['GITHUB_ACTIONS'] },
  { system: 'GitLab', set: ['GITLAB_CI'] },
  { system: 'GoCD', set: ['GO_PIPELINE_LABEL'] },
  { system: 'Hudson', set: ['HUDSON_URL'] },
  { system: 'Jenkins', set: ['JENKINS_URL'] },
  { system: 'Magnum CI', set: ['MAGNUM'] },
  { system: 'Semaphore', set: ['SEMAPHORE'] },
  {
    system: 'Spacelift',
    set: [
      'SPACELIFT_MAX_REQUESTS_BURST',
      'TF_VAR_spacelift_run_trigger',
      'SPACELIFT_STORE_HOOKS_ENV_VARS',
      'TF_VAR_spacelift_commit_branch',
      'SPACELIFT_WORKER_TRACING_ENABLED',
    ],
  },
  { system: 'TaskCluster', set: ['TASK_ID', 'RUN_ID'] },
  { system: 'TeamCity', set: ['TEAMCITY_VERSION'] },
  { system: 'Travis', set: ['TRAVIS'] },
];

const truthy = (v: string | undefined) => v !== undefined && v !== '' && v.toLowerCase() !== 'false' && v !== '0';

/** pp ciutil `IsCI`: a detector matches, unless `PULUMI_DISABLE_CI_DETECTION` is non-empty. */
function pulumiDetectsCI(env: Record<string, string | undefined>): boolean {
  if (env.PULUMI_DISABLE_CI_DETECTION) return false;
  return CI_DETECTORS.some(
    (d) => d.set?.some((name) => !!env[name]) || Object.entries(d.equals ?? {}).some(([name, value]) => env[name] === value),
  );
}

/**
 * Whether the program runs non-interactively. The Pulumi CLI shows its interactive display only when
 * `!DisableInteractive && InteractiveTerminal() && !IsCI()` (pp sdk/go/common/util/cmdutil/console.go
 * L51-66); of those, the program sees the environment the CLI passes on: `TERM` equal to `dumb` in
 * any case (`InteractiveTerminal`) and a CI system the CLI detects ({@link CI_DETECTORS}). It cannot
 * see `--non-interactive` nor whether the CLI's stdin and stdout are terminals (its own stdio goes
 * to the engine), so two variables of rollout-trace's own stand for those: `CI` (set by most CI
 * runners, whose output is no terminal) and `PULUMI_NON_INTERACTIVE`, each set and not `false` or
 * `0`. `compactLines` says so explicitly.
 */
export function nonInteractive(env: Record<string, string | undefined>): boolean {
  if (truthy(env.PULUMI_NON_INTERACTIVE) || truthy(env.CI)) return true;
  if (env.TERM?.toLowerCase() === 'dumb') return true;
  return pulumiDetectsCI(env);
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
