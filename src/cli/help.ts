/** The `--help` text. */
import { FAILURE_CLASSES } from '../core/index.js';

/** The command lines, and what a trace does. */
const USAGE = `rollout-trace - trace a Kubernetes rollout (Deployment, StatefulSet, DaemonSet, Job) and explain why it fails

Usage:
  rollout-trace KIND NAME [NAME...] [flags]          KIND: deploy, sts, ds or job (kubectl's names)
  rollout-trace KIND/NAME [KIND/NAME...] [flags]     kinds mixed in one call: deploy/web sts/db job/migrate
  rollout-trace KIND -l SELECTOR [flags]             rollout-trace all -l SELECTOR: every kind
  rollout-trace replay FILE [-o FORMAT] [--speed N | --instant] [--report FILE.html] [--junit FILE]
                     [policy flags]
                                                     replay a --record file offline: the same events and
                                                     verdict, or what other policy flags would have said

Watches each workload, its ReplicaSets, Pods and Events until the rollout succeeds (Pulumi's
exact success predicate for Deployments; each kind's rule in docs/verdicts.md: a Job succeeds
when Complete), fails (a failing pod is diagnosed within seconds), or times out. Prints
a live tree on a terminal, timestamped lines in CI, or JSON lines; ends with a summary naming
the failing pod/container, the reason in plain words, last log lines, events and kubectl hints.

`;

/** Every flag, one entry each. */
const FLAGS = `Flags:
  -n, --namespace NS        namespace (default: the kubeconfig context's, else "default")
  -l, --selector SELECTOR   trace every workload of KIND (all: of every kind) matching this label selector
      --context NAME        kubeconfig context to use
      --kubeconfig PATH     kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)
      --timeout DURATION    give up after DURATION (90s, 5m, 1m30s or seconds; default 10m, Pulumi's)
      --no-progress-timeout DURATION
                            give up when the rollout shows no progress (no ReplicaSet or pod
                            state change) for DURATION (default: off); exit code 70 too
  -o, --output FORMAT       auto | tty | plain | json (default auto: tty on a terminal, plain in CI or a pipe)
      --wait-for-creation DURATION
                            wait this long for a workload that does not exist yet (default 5s)
      --min-generation N    ignore the workload until metadata.generation >= N (start tracing
                            before applying a change: N = current generation + 1)
      --no-logs             do not fetch the last log lines of failing containers
      --log-lines N         how many log lines to fetch per container (default 20)
      --logs-on-success     a Job that succeeds: print its pods' last log lines too (default: on failure only)
      --follow-logs         stream the new revision's container logs live (log lines in the output)
      --log-grep REGEX      with --follow-logs: only lines matching REGEX
      --log-container NAME  with --follow-logs: only this container (repeatable)
      --redact REGEX        mask matches as *** in every log line and cluster message shown (termination
                            messages, events; repeatable); values after password=, token:, api_key...,
                            Bearer tokens and URL passwords always are
      --fail-after CLASS=DURATION
                            fail when a problem of CLASS persists DURATION (repeatable)
      --tolerate CLASS=PODS let PODS pods have a problem of CLASS; fail only on more (repeatable)
      --warn-only CLASS     report problems of CLASS without failing the rollout (repeatable)
      --ignore CLASS        do not report problems of CLASS (repeatable)
      --success CRITERION   full (Pulumi's predicate, default) | maxUnavailable | NN% | N pods ready
                            (a Job: N or NN% of its completions succeeded)
      --settle DURATION     a new pod that crashed or had a failing problem must stay Ready this long
                            before the rollout succeeds (default 5s; 0: no settle time)
  -w, --watch               keep tracing after the verdict (pods killed, relabeled, later rollouts); Ctrl-C ends
      --watch-for DURATION  like --watch, but stop after DURATION
      --pulumi-messages     add Pulumi's own await messages to the failure summary
      --record FILE         record the trace into FILE (gzip JSON lines: what the cluster sent,
                            redacted, env values never) for rollout-trace replay
      --report FILE.html    write an HTML report once the traces ended: a lane per pod coloured by
                            state, ReplicaSet steps, Events, the verdict and where the time went
      --junit FILE          write a JUnit XML report (one test case per workload) for CI to render
  -h, --help                show this help
      --version             show the version

`;

/** Exit codes, environment variables and examples. */
const CODES_AND_EXAMPLES = `Exit codes:
  0   every rollout succeeded
  1   a rollout failed
  2   bad command line
  3   cannot trace: kubeconfig/context, cluster unreachable, forbidden, workload or namespace not found
  4   internal error (a bug: please report it)
  70  a rollout timed out (and none failed)
  130 interrupted (Ctrl-C) before the verdict

Environment:
  NO_COLOR / FORCE_COLOR    disable / force colours
  CI                        any value: plain output instead of the live tree (with -o auto)
  GITHUB_ACTIONS=true       fold failure details with ::group:: and add ::error:: annotations; with
                            GITHUB_STEP_SUMMARY set, append a Markdown summary to the job's summary
  GITLAB_CI=true            fold failure details in a collapsed job-log section

Examples:
  rollout-trace deploy nginx -n web
  rollout-trace sts/postgres deploy/api job/migrate -n prod
  kubectl apply -f app.yaml && rollout-trace deploy api worker -n prod --timeout 5m
  kubectl apply -k overlays/prod && rollout-trace deploy -l app.kubernetes.io/part-of=shop -n prod
  rollout-trace deploy nginx --fail-after crash-loop=60s --warn-only readiness-probe
  rollout-trace deploy nginx --warn-only paused    # wait for kubectl rollout resume instead of failing
  rollout-trace deploy nginx -o json | jq -c 'select(.type=="verdict") | .verdict.outcome'
  rollout-trace deploy nginx --watch          # then kubectl delete pod ... in another terminal
  rollout-trace deploy nginx --record web.rtrec.gz && rollout-trace replay web.rtrec.gz --fail-after crash-loop=60s
`;

/** Usage, flags, failure classes, exit codes and examples. */
export function helpText(): string {
  return `${USAGE}${FLAGS}Failure classes:
  ${FAILURE_CLASSES.join(', ')}

${CODES_AND_EXAMPLES}`;
}
