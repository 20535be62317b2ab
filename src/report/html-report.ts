/**
 * The HTML report (pure): one self-contained file (inline CSS and SVG, no script, no font, no
 * network), a section per traced workload: its verdict, where the time went, and a timeline with a
 * lane per pod coloured by state, the ReplicaSet or revision steps, the Events and problems as
 * marks. Large rollouts are drawn grouped by revision. Every cluster-supplied text is escaped.
 */
import type { RolloutEvent } from '../core/index.js';
import { PHASE_WORDS } from '../core/index.js';
import { formatVerdict } from './format-verdict.js';
import { groupedLanes, LANE_STATES, type Mark, timelinesOf, type WorkloadTimeline } from './timeline.js';

/** Pods above this count are drawn grouped by revision. */
const MAX_POD_LANES = 80;
const WIDTH = 960;
const LABEL = 230;
const LANE = 16;
const BUCKETS = 120;

const COLORS: Record<string, string> = {
  pending: '#c9ccd1',
  scheduled: '#aab4c0',
  'container-creating': '#f2c14e',
  initializing: '#f2c14e',
  waiting: '#f08c38',
  running: '#6fa8dc',
  ready: '#4caf50',
  succeeded: '#2a9d8f',
  failed: '#d9534f',
  terminating: '#9b7fc7',
  gone: '#eeeeee',
};

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The report of `events` (every traced workload's), as one HTML document. */
export function htmlReport(events: readonly RolloutEvent[], title = 'rollout-trace report'): string {
  const timelines = timelinesOf(events);
  const sections = timelines.map(section).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${CSS}</style></head>
<body><h1>${esc(title)}</h1>
<p class="legend">${LANE_STATES.map((s) => `<span><i style="background:${COLORS[s]}"></i>${esc(s)}</span>`).join(' ')}
<span><b class="mk warning">▲</b>warning Event</span> <span><b class="mk problem">◆</b>problem</span> <span><b class="mk step">|</b>ReplicaSet or revision step</span></p>
${sections || '<p>No traced workload.</p>'}
</body></html>
`;
}

function section(t: WorkloadTimeline): string {
  const outcome = t.verdict?.outcome ?? 'unfinished';
  const verdict = t.verdict
    ? `<pre class="verdict">${esc(formatVerdict(t.verdict, { color: false }))}</pre>`
    : '<p>The trace ended before a verdict.</p>';
  return `<section class="workload" data-workload="${esc(t.key)}" data-verdict="${esc(outcome)}">
<h2><span class="badge ${esc(outcome)}">${esc(outcome)}</span> ${esc(t.title)}</h2>
${verdict}
${timingsTable(t)}
${t.lanes.length > MAX_POD_LANES ? groupedSvg(t) : lanesSvg(t)}
</section>`;
}

function timingsTable(t: WorkloadTimeline): string {
  const timings = t.verdict?.timings;
  if (!timings || timings.pods.length === 0) return '';
  const phases = Object.keys(PHASE_WORDS) as (keyof typeof PHASE_WORDS)[];
  const head = `<tr><th>pod</th><th>node</th>${phases.map((p) => `<th>${esc(PHASE_WORDS[p])} (s)</th>`).join('')}</tr>`;
  const shown = timings.pods.slice(0, 50);
  const rows = shown.map(
    (p) => `<tr><td>${esc(p.pod)}</td><td>${esc(p.node ?? '')}</td>${phases.map((ph) => `<td>${p[ph] ?? ''}</td>`).join('')}</tr>`,
  );
  const total = `<tr class="total"><td>all ${timings.pods.length} pods</td><td></td>${phases.map((ph) => `<td>${timings.phases[ph]}</td>`).join('')}</tr>`;
  return `<table class="timings">${head}${rows.join('')}${total}</table>`;
}

const x = (t: WorkloadTimeline, at: number) => LABEL + ((WIDTH - LABEL - 10) * (at - t.start)) / Math.max(1, t.end - t.start);

function axis(t: WorkloadTimeline, height: number): string {
  const span = (t.end - t.start) / 1000;
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600].find((s) => span / s <= 8) ?? 1200;
  const ticks: string[] = [];
  for (let s = 0; s <= span; s += step) {
    const px = x(t, t.start + s * 1000);
    ticks.push(`<line x1="${px}" x2="${px}" y1="18" y2="${height}" class="grid"/><text x="${px}" y="12" class="tick">${s}s</text>`);
  }
  return ticks.join('');
}

function markSvg(t: WorkloadTimeline, m: Mark, y: number): string {
  const px = x(t, m.at).toFixed(1);
  const title = `<title>${esc(`${((m.at - t.start) / 1000).toFixed(1)}s ${m.text}`)}</title>`;
  if (m.kind === 'step') return `<g class="mark step"><line x1="${px}" x2="${px}" y1="${y}" y2="${y + LANE - 2}"/>${title}</g>`;
  const shape = m.kind === 'problem' ? '◆' : m.kind === 'warning' ? '▲' : '•';
  return `<g class="mark ${m.kind}"><text x="${px}" y="${y + LANE - 4}" text-anchor="middle">${shape}</text>${title}</g>`;
}

function lanesSvg(t: WorkloadTimeline): string {
  const top = 22;
  const height = top + (t.lanes.length + 1) * LANE + 4;
  const lanes = t.lanes.map((lane, i) => {
    const y = top + (i + 1) * LANE;
    const segs = lane.segments
      .map((s) => {
        const x1 = x(t, s.from);
        const w = Math.max(1, x(t, s.to) - x1);
        const tip = `${lane.pod}: ${s.state}${s.detail ? ` (${s.detail})` : ''} from ${((s.from - t.start) / 1000).toFixed(1)}s`;
        return `<rect x="${x1.toFixed(1)}" y="${y + 2}" width="${w.toFixed(1)}" height="${LANE - 4}" fill="${COLORS[s.state] ?? '#999'}" data-state="${esc(s.state)}"><title>${esc(tip)}</title></rect>`;
      })
      .join('');
    const marks = t.marks
      .filter((m) => m.pod === lane.pod)
      .map((m) => markSvg(t, m, y))
      .join('');
    const label = `${lane.pod}${lane.revision ? ` · ${lane.revision}` : ''}`;
    return `<g class="lane" data-lane="${esc(lane.pod)}"><text x="4" y="${y + LANE - 4}" class="label">${esc(label.length > 36 ? `${label.slice(0, 35)}…` : label)}</text>${segs}${marks}</g>`;
  });
  const workloadMarks = t.marks.filter((m) => !m.pod || !t.lanes.some((l) => l.pod === m.pod)).map((m) => markSvg(t, m, top));
  const head = `<text x="4" y="${top + LANE - 4}" class="label">steps, Events</text>${workloadMarks.join('')}`;
  return `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(t.title)} timeline">${axis(t, height)}${head}${lanes.join('')}</svg>`;
}

function groupedSvg(t: WorkloadTimeline): string {
  const groups = groupedLanes(t, BUCKETS);
  const top = 22;
  const band = 40;
  const height = top + groups.length * (band + 6) + 4;
  const bucketWidth = (WIDTH - LABEL - 10) / BUCKETS;
  const rows = groups.map((g, i) => {
    const y = top + i * (band + 6);
    const cols = g.shares
      .map((shares, b) => {
        let offset = 0;
        return LANE_STATES.filter((s) => shares[s])
          .map((s) => {
            const h = shares[s]! * band;
            const rect = `<rect x="${(LABEL + b * bucketWidth).toFixed(1)}" y="${(y + offset).toFixed(1)}" width="${bucketWidth.toFixed(2)}" height="${h.toFixed(2)}" fill="${COLORS[s]}"/>`;
            offset += h;
            return rect;
          })
          .join('');
      })
      .join('');
    return `<g class="lane group" data-lane="revision ${esc(g.revision)}"><text x="4" y="${y + band / 2 + 4}" class="label">revision ${esc(g.revision)} · ${g.pods} pods</text>${cols}</g>`;
  });
  return `<p class="note">${t.lanes.length} pods, drawn as the share of each revision's pods in each state over time.</p><svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(t.title)} timeline">${axis(t, height)}${rows.join('')}</svg>`;
}

const CSS = `body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin:24px 0 8px}
.badge{display:inline-block;padding:1px 8px;border-radius:4px;color:#fff;font-size:12px;text-transform:uppercase}
.badge.succeeded{background:#2e7d32}.badge.failed{background:#c62828}.badge.timed-out{background:#ef6c00}.badge.cancelled,.badge.unfinished{background:#757575}
pre.verdict{background:#f6f8fa;border:1px solid #ddd;padding:8px;overflow-x:auto;white-space:pre-wrap;font:12px/1.35 ui-monospace,monospace}
.legend span{margin-right:10px;white-space:nowrap}.legend i{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}
.mk{font-style:normal;margin-right:3px}.mk.warning,.mark.warning text{fill:#e65100;color:#e65100}.mk.problem,.mark.problem text{fill:#b71c1c;color:#b71c1c}
.mk.step{color:#1565c0}.mark.step line{stroke:#1565c0;stroke-width:2}.mark.event text{fill:#777}
table.timings{border-collapse:collapse;margin:8px 0;font-size:12px}table.timings td,table.timings th{border:1px solid #ddd;padding:2px 6px;text-align:right}
table.timings td:first-child,table.timings th:first-child,table.timings td:nth-child(2){text-align:left}table.timings tr.total{font-weight:bold}
svg.timeline{display:block;max-width:100%;height:auto;border:1px solid #eee}
.label{font:11px ui-monospace,monospace;fill:#333}.tick{font:10px sans-serif;fill:#666}.grid{stroke:#eee}
.note{color:#555;font-size:12px}
@media print{body{margin:0}section{break-inside:avoid}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}`;
