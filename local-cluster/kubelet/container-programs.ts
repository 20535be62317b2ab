/**
 * What a simulated container's program does, by its image and command: a shell script that ends
 * (and its exit code), a server that exits 0 on SIGTERM, what a failing probe prints; and the
 * deterministic timings derived from names.
 */
import { createHash } from 'node:crypto';
import type { V1Container, V1Probe } from '@kubernetes/client-node';
import { parseImage } from './registry.js';

/** A stable number from a name (deterministic delays). */
export function hashNumber(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

const SHELL_IMAGES = new Set(['busybox', 'alpine', 'ubuntu', 'debian', 'centos', 'fedora']);

const SHORT_STEP = String.raw`(echo|printf|true|false|env|date|ls|pwd|id|hostname|uname|exit(\s+\d+)?)\b[^;&|]*`;
const SHORT_SCRIPT = new RegExp(String.raw`^\s*${SHORT_STEP}(\s*(;|&&)\s*${SHORT_STEP})*\s*;?\s*$`);

/**
 * The exit code of a shell-image container whose command obviously ends (`echo hi`, `exit 1`, or
 * no command at all: `sh` without a TTY exits at once), as on a real node; undefined when it keeps
 * running (sleep, servers, loops, anything else).
 */
export function scriptExit(spec: V1Container): number | undefined {
  const repo =
    parseImage(spec.image ?? '')
      ?.path.split('/')
      .pop() ?? '';
  if (!SHELL_IMAGES.has(repo) || spec.tty || spec.stdin) return undefined;
  const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
  if (argv.length === 0) return 0;
  const script = /^(\/bin\/)?(sh|bash|ash)$/.test(argv[0]) && argv[1] === '-c' ? argv.slice(2).join(' ') : argv.join(' ');
  if (!SHORT_SCRIPT.test(script)) return undefined;
  const exits = [...script.matchAll(/\bexit\s+(\d+)/g)];
  if (/\bfalse\b/.test(script) && exits.length === 0) return 1;
  return exits.length ? Number(exits[0][1]) : 0;
}

/** Servers that exit 0 on SIGTERM (others are SIGKILLed after the grace period: 137). */
export function handlesSigterm(spec: V1Container): boolean {
  const repo =
    parseImage(spec.image ?? '')
      ?.path.split('/')
      .pop() ?? '';
  return ['nginx', 'httpd', 'redis', 'postgres', 'caddy', 'traefik', 'haproxy'].includes(repo.replace(/-.*$/, ''));
}

/** The prober's failure output for a probe that keeps failing. */
export function probeFailure(probe: V1Probe, podIP: string, container: V1Container): string {
  if (probe.httpGet) return 'HTTP probe failed with statuscode: 503';
  if (probe.tcpSocket) {
    return `dial tcp ${podIP}:${resolvePort(probe.tcpSocket.port, container)}: connect: connection refused`;
  }
  if (probe.exec) {
    const cmd = probe.exec.command ?? [];
    const catIdx = cmd.indexOf('cat');
    if (catIdx >= 0 && cmd[catIdx + 1]) return `cat: can't open '${cmd[catIdx + 1]}': No such file or directory\n`;
    return '';
  }
  return '';
}

function resolvePort(port: unknown, container: V1Container): string {
  if (typeof port === 'number') return String(port);
  const named = container.ports?.find((p) => p.name === port);
  return named ? String(named.containerPort) : String(port);
}
