/**
 * The HTML report in a real browser (Debian's headless Chromium): the report `--report` wrote for
 * a broken rollout on the control plane, for the four kinds traced in one call, and the grouped
 * report of a 2,000-pod rollout. The page
 * shows each workload's verdict, a lane per pod (or per revision when grouped), the legend, no
 * console error, and makes no request but its own file. Screenshots are kept under
 * .tmp/artefacts/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RolloutEvent } from '../../../src/core/index.js';
import { htmlReport } from '../../../src/report/index.js';
import { browserMissing, renderInChromium } from '../../helpers/browser.js';
import { kubeconfigPath, withNamespace } from '../../helpers/cluster.js';
import { createDeployment, updateDeployment, waitRolledOut } from '../../helpers/deployments.js';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { runCli } from '../cli/run-cli.js';

const ARTEFACTS = new URL('../../../.tmp/artefacts/', import.meta.url).pathname;
mkdirSync(ARTEFACTS, { recursive: true });

/** What the tests read of a report page. */
const FACTS = `(() => ({
  sections: [...document.querySelectorAll('section.workload')].map((s) => ({
    verdict: s.dataset.verdict,
    title: s.querySelector('h2').textContent,
    lanes: [...s.querySelectorAll('[data-lane]')].map((l) => l.dataset.lane),
    states: [...new Set([...s.querySelectorAll('rect[data-state]')].map((r) => r.dataset.state))],
    summary: s.querySelector('pre.verdict')?.textContent ?? '',
    svgWidth: s.querySelector('svg.timeline')?.getBoundingClientRect().width ?? 0,
  })),
  legend: document.querySelectorAll('.legend span').length,
  scripts: document.scripts.length,
}))()`;

type Facts = {
  sections: { verdict: string; title: string; lanes: string[]; states: string[]; summary: string; svgWidth: number }[];
  legend: number;
  scripts: number;
};

test('--report of a broken rollout on the control plane, rendered in Chromium', { skip: browserMissing() }, async (t) => {
  const ns = await withNamespace(t, 'report');
  const dir = mkdtempSync(join(tmpdir(), 'rt-report-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 });
  await waitRolledOut(ns, 'web');
  await updateDeployment(ns, 'web', { image: 'nginx:1.99-does-not-exist', replicas: 2 });
  const file = join(dir, 'report.html');
  const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--report', file]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stderr, new RegExp(`report written to ${file.replace(/[.]/g, '\\.')}`));
  const page = await renderInChromium<Facts>(file, FACTS, join(ARTEFACTS, 'html-report-broken-image.png'));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(
    page.requests.filter((u) => !u.startsWith('file:')),
    [],
    'no network request',
  );
  assert.equal(page.value.scripts, 0);
  assert.ok(page.value.legend >= 10);
  const [web] = page.value.sections;
  assert.equal(page.value.sections.length, 1);
  assert.equal(web?.verdict, 'failed');
  assert.match(web?.title ?? '', new RegExp(`Deployment ${ns}/web`));
  assert.match(web?.summary ?? '', /FAILED .*image "nginx:1\.99-does-not-exist" not found/);
  assert.ok((web?.lanes.length ?? 0) >= 3, `a lane per pod: ${web?.lanes}`);
  assert.ok(web?.states.includes('ready') && web.states.includes('waiting'), `old pods ready, the new one waiting: ${web?.states}`);
  assert.ok((web?.svgWidth ?? 0) > 500);
});

test('--report of the four kinds in one call: a section each, with its verdict and its pods', { skip: browserMissing() }, async (t) => {
  const ns = await withNamespace(t, 'report-kinds');
  const dir = mkdtempSync(join(tmpdir(), 'rt-report-kinds-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await Promise.all([
    createDeployment(ns, 'web', { image: 'nginx:1.19' }),
    createStatefulSet(ns, 'db', { replicas: 2, image: 'postgres:13' }),
    createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' }),
    createJob(ns, 'migrate', {
      image: 'busybox:1.32',
      backoffLimit: 0,
      behaviour: { app: 'crash;exitCode=2;after=1;logs=relation "users" does not exist' },
    }),
  ]);
  const file = join(dir, 'kinds.html');
  const run = await runCli([
    'deploy/web',
    'sts/db',
    'ds/agent',
    'job/migrate',
    '-n',
    ns,
    '--kubeconfig',
    kubeconfigPath(),
    '-o',
    'plain',
    '--report',
    file,
  ]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const page = await renderInChromium<Facts>(file, FACTS, join(ARTEFACTS, 'html-report-four-kinds.png'));
  assert.deepEqual(page.errors, []);
  const byTitle = Object.fromEntries(page.value.sections.map((s) => [s.title.replace(/^\S+ /, '').replace(` ${ns}/`, '/'), s]));
  assert.deepEqual(Object.keys(byTitle).sort(), ['DaemonSet/agent', 'Deployment/web', 'Job/migrate', 'StatefulSet/db']);
  assert.equal(byTitle['Job/migrate']?.verdict, 'failed');
  assert.match(byTitle['Job/migrate']?.summary ?? '', /exited with code 2/);
  for (const k of ['Deployment/web', 'StatefulSet/db', 'DaemonSet/agent']) assert.equal(byTitle[k]?.verdict, 'succeeded', k);
  assert.deepEqual(byTitle['StatefulSet/db']?.lanes.sort(), ['db-0', 'db-1']);
  for (const [k, s] of Object.entries(byTitle)) assert.ok((s?.lanes.length ?? 0) >= 1, `${k} has a lane per pod`);
});

test('a 2,000-pod rollout: grouped by revision, a few MB, rendered in Chromium', { skip: browserMissing() }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-report-big-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const workload = { kind: 'Deployment' as const, namespace: 'big', name: 'web' };
  const base = { workload, deployment: { namespace: 'big', name: 'web' }, kind: 'Deployment' as const };
  const t0 = Date.parse('2026-11-28T08:00:00Z');
  const events: RolloutEvent[] = [{ type: 'started', at: t0, ...base }];
  for (let i = 0; i < 2000; i++) {
    const pod = `web-new-${i}`;
    events.push({ type: 'pod', name: pod, revision: '2', state: 'container-creating', at: t0 + i * 20, ...base });
    events.push({ type: 'pod', name: pod, revision: '2', state: 'running', at: t0 + i * 20 + 5000, ...base });
    events.push({ type: 'pod', name: pod, revision: '2', state: 'ready', at: t0 + i * 20 + 8000, ...base });
    events.push({ type: 'pod', name: `web-old-${i}`, revision: '1', state: 'ready', at: t0, ...base });
    events.push({ type: 'pod-deleted', name: `web-old-${i}`, at: t0 + i * 20 + 8000, ...base });
  }
  const end = t0 + 2000 * 20 + 8000;
  const verdict = {
    outcome: 'succeeded' as const,
    workload,
    deployment: base.deployment,
    revision: '2',
    summary: 'revision 2 rolled out: 2000/2000 pods ready in 48.0s',
    problems: [],
    replicas: { desired: 2000, ready: 2000, updated: 2000, available: 2000 },
    startedAt: t0,
    finishedAt: end,
    pulumiMessages: [],
    hints: [],
  };
  events.push({ type: 'verdict', verdict, at: end, ...base });
  const file = join(dir, 'big.html');
  writeFileSync(file, htmlReport(events, 'big rollout'));
  const size = statSync(file).size;
  assert.ok(size < 3 * 2 ** 20, `${(size / 2 ** 20).toFixed(2)} MB`);
  const page = await renderInChromium<Facts>(file, FACTS, join(ARTEFACTS, 'html-report-2000-pods.png'));
  assert.deepEqual(page.errors, []);
  const [web] = page.value.sections;
  assert.equal(web?.verdict, 'succeeded');
  assert.deepEqual(web?.lanes.sort(), ['revision 1', 'revision 2']);
  assert.match(readFileSync(file, 'utf8'), /4000 pods, drawn as the share of each revision's pods in each state over time/);
});
