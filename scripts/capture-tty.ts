/**
 * Regenerates docs/dev/tty-capture.txt: runs `npm run demo` in a real terminal (tmux 120x50), samples
 * the pane while it runs, picks one live frame per moment worth showing, and appends the final
 * scrollback. Needs tmux (`apt-get install tmux`). Usage: node --import tsx scripts/capture-tty.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

const SESSION = `rollout-trace-capture-${process.pid}`;
const OUT = new URL('../docs/dev/tty-capture.txt', import.meta.url);
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Deployment /;

/** A moment of the demo: the first sampled frame that matches wins. */
interface Moment {
  title: string;
  matches: (frame: string) => boolean;
}

const MOMENTS: Moment[] = [
  {
    title: "scene 2, phase 1-2: revision 2's ReplicaSet exists and starts its first pod",
    matches: (f) => /revision 2 · scaling up/.test(f) && /\(new, revision 2\) 0\/1 ready/.test(f) && /◔/.test(f),
  },
  {
    title: 'scene 2, phase 2-3: the new ReplicaSet scales up while the old one scales down',
    matches: (f) => /revision 2 · scaling down old/.test(f) && /\(new, revision 2\) 1\/2 ready/.test(f) && /◔/.test(f),
  },
  {
    title: 'scene 2, phase 3: the old ReplicaSet drains (pods that left the tree get a note)',
    matches: (f) => /revision 2 · scaling down old/.test(f) && /\(new, revision 2\) 2\/3 ready/.test(f) && /deleted/.test(f),
  },
  {
    title: 'scene 3, --watch-for after the verdict: a killed pod terminates, its replacement is created',
    matches: (f) => /watching for changes/.test(f) && /✗ .* terminating/.test(f) && /◔|pending/.test(f),
  },
  {
    title: 'scene 4, --watch-for: a relabeled pod was released (orphaned) and is being replaced',
    matches: (f) => /watching for changes/.test(f) && /orphaned/.test(f),
  },
  {
    title: 'scene 5: a pod with a problem gets the ⚠ marker and the cause in plain words',
    matches: (f) => /revision 3/.test(f) && /⚠ nginx-/.test(f),
  },
  {
    title: 'scene 7: every pod of the new ReplicaSet waits on a ConfigMap volume that does not exist',
    matches: (f) => /Deployment rollout-trace-demo\/web/.test(f) && (f.match(/⚠ web-/g) ?? []).length >= 3,
  },
  {
    title: 'scene 8: a crashing app, its latest log line under its pod (--follow-logs)',
    matches: (f) => /Deployment rollout-trace-demo\/api/.test(f) && /› [\w-]+: /.test(f),
  },
];

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

/** The live block: from the last spinner line to the last non-empty line of the pane. */
function liveFrame(pane: string): string | undefined {
  const lines = pane.split('\n');
  let start = -1;
  lines.forEach((l, i) => {
    if (SPINNER.test(l)) start = i;
  });
  if (start < 0) return undefined;
  const rest = lines.slice(start);
  while (rest.length > 0 && rest.at(-1)!.trim() === '') rest.pop();
  return rest.join('\n');
}

async function main(): Promise<void> {
  if (spawnSync('tmux', ['-V']).status !== 0) {
    console.error('capture-tty needs tmux: apt-get install -y tmux');
    process.exit(2);
  }
  tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '50', 'npm run -s demo; echo CAPTURE-DONE; sleep 600');
  tmux('set-option', '-t', SESSION, 'history-limit', '20000');
  const picked = new Map<number, string>();
  try {
    for (;;) {
      await delay(250);
      const pane = tmux('capture-pane', '-p', '-J', '-t', SESSION);
      const frame = liveFrame(pane);
      if (frame) {
        MOMENTS.forEach((m, i) => {
          if (!picked.has(i) && m.matches(frame)) picked.set(i, frame);
        });
      }
      if (pane.includes('CAPTURE-DONE')) break;
    }
    const scrollback = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', SESSION);
    // From the demo's banner (npm's set-up lines before it are not the demo) to its last line.
    const ending = scrollback.slice(Math.max(0, scrollback.indexOf('rollout-trace demo:')), scrollback.indexOf('CAPTURE-DONE')).trimEnd();
    const frames = MOMENTS.flatMap((m, i) => (picked.has(i) ? [`---- ${m.title}`, picked.get(i)!, ''] : []));
    const missing = MOMENTS.filter((_, i) => !picked.has(i)).map((m) => m.title);
    writeFileSync(
      OUT,
      [
        'rollout-trace: TTY output, captured from a real terminal (tmux 120x50, `tmux capture-pane -p`)',
        'while `npm run demo` ran on the embedded control plane (Kubernetes 1.20.2 + simulated kubelet).',
        "Colours are not kept by capture-pane; wrapped lines are joined; the spinner is ora's. Regenerate: `node --import tsx scripts/capture-tty.ts`.",
        '',
        'The live view (frames sampled mid-run; the whole block is redrawn in place on every change):',
        '',
        ...frames,
        '',
        'The terminal at the end of the demo (full scrollback: what stays on screen once each trace ends):',
        '',
        ending,
        '',
      ].join('\n'),
    );
    console.log(
      `wrote ${OUT.pathname}: ${picked.size}/${MOMENTS.length} live frames${missing.length ? `; not seen: ${missing.join('; ')}` : ''}`,
    );
  } finally {
    spawnSync('tmux', ['kill-session', '-t', SESSION]);
  }
}

await main();
