/**
 * What CI systems show (pure): a Markdown summary for GitHub Actions' job summary
 * (`GITHUB_STEP_SUMMARY`), and a JUnit XML report (one test case per traced workload) that GitLab,
 * Jenkins, Azure Pipelines and others render. Cluster text is cleaned first and escaped for each
 * format, so it can neither break the table nor inject markup.
 */
import type { Problem, Verdict } from '../core/index.js';
import { cleanedVerdict, dominantWords, workloadOf } from '../core/index.js';
import { formatDuration } from './format-time.js';
import { causeFirst, formatVerdict, outcomeLabel } from './format-verdict.js';

const SYMBOL: Record<Verdict['outcome'], string> = { succeeded: '✅', failed: '❌', 'timed-out': '⏱️', cancelled: '⏹️' };

/** `|`, `<`, `>` and line breaks made harmless in a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A fenced block whose fence no backtick run in `text` can close. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

const took = (v: Verdict) => formatDuration(v.finishedAt - v.startedAt);
const named = (v: Verdict) => {
  const w = workloadOf(v);
  return `${w.kind} ${w.namespace}/${w.name}`;
};

/** The Markdown summary of `verdicts`: a table, then each failure's pods, causes, log tails (folded) and timings. */
export function markdownSummary(raw: readonly Verdict[], title = 'rollout-trace'): string {
  const verdicts = raw.map(cleanedVerdict);
  const counts = (['failed', 'timed-out', 'cancelled', 'succeeded'] as const)
    .map((o) => [o, verdicts.filter((v) => v.outcome === o).length] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o}`);
  const lines = [
    `### ${cell(title)}: ${counts.join(', ') || 'nothing traced'}`,
    '',
    '| workload | verdict | summary | took |',
    '| --- | --- | --- | --- |',
  ];
  for (const v of verdicts) lines.push(`| ${cell(named(v))} | ${SYMBOL[v.outcome]} ${outcomeLabel(v)} | ${cell(v.summary)} | ${took(v)} |`);
  for (const v of verdicts) {
    const time = v.timings ? dominantWords(v.timings) : undefined;
    if (v.outcome === 'succeeded') {
      if (time) lines.push('', `**${cell(named(v))}**: where the time went: ${cell(time)}`);
      continue;
    }
    lines.push('', `#### ${SYMBOL[v.outcome]} ${cell(named(v))}`, '');
    for (const p of causeFirst(v.problems, (x) => x)) lines.push(...problemLines(p));
    if (time) lines.push('', `Where the time went: ${cell(time)}`);
    if (v.hints.length > 0) lines.push('', '<details><summary>To dig further</summary>', '', fenced(v.hints.join('\n')), '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

function problemLines(p: Problem): string[] {
  const container = p.container !== undefined ? ` container \`${p.container.replace(/`/g, '')}\`` : '';
  const out = [`- **${cell(`${p.object.kind}/${p.object.name}`)}**${container}: ${cell(p.explanation)} (${cell(p.reason)})`];
  if (p.exitCode !== undefined) out[0] += `, exit code ${p.exitCode}`;
  for (const log of p.logs ?? []) {
    out.push(
      '',
      `  <details><summary>logs of ${cell(log.container)} (last ${log.lines.length} lines)</summary>`,
      '',
      fenced(log.lines.join('\n')),
      '',
      '  </details>',
    );
  }
  return out;
}

/** Text valid in XML 1.0 (no control character but tab and line breaks), escaped. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * The JUnit XML report: one test case per traced workload (`classname` its kind and namespace,
 * `name` its name, `time` its rollout's seconds), a failure or a time-out as `<failure>` with the
 * cause as its message and the final summary as its text, a cancelled trace as `<error>`.
 */
export function junitReport(raw: readonly Verdict[], suite = 'rollout-trace'): string {
  const verdicts = raw.map(cleanedVerdict);
  const seconds = (v: Verdict) => ((v.finishedAt - v.startedAt) / 1000).toFixed(3);
  const failures = verdicts.filter((v) => v.outcome === 'failed' || v.outcome === 'timed-out').length;
  const errors = verdicts.filter((v) => v.outcome === 'cancelled').length;
  const total = verdicts.reduce((s, v) => s + (v.finishedAt - v.startedAt) / 1000, 0).toFixed(3);
  const cases = verdicts.map((v) => {
    const w = workloadOf(v);
    const head = `    <testcase classname="${xml(`${w.kind}.${w.namespace}`)}" name="${xml(w.name)}" time="${seconds(v)}"`;
    if (v.outcome === 'succeeded') return `${head}/>`;
    const tag = v.outcome === 'cancelled' ? 'error' : 'failure';
    const type = v.outcome === 'timed-out' ? 'timed-out' : (v.problems[0]?.class ?? v.outcome);
    const body = formatVerdict(v, { color: false });
    return `${head}>\n      <${tag} message="${xml(v.summary)}" type="${xml(type)}">${xml(body)}</${tag}>\n    </testcase>`;
  });
  const attrs = `tests="${verdicts.length}" failures="${failures}" errors="${errors}" time="${total}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${xml(suite)}" ${attrs}>
  <testsuite name="${xml(suite)}" ${attrs}>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
