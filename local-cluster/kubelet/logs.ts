/**
 * What simulated containers print: a few realistic startup lines chosen by image (nginx, redis,
 * httpd, ...), the `logs=` annotation lines, and a crashing instance's last words.
 */
import type { V1Container } from '@kubernetes/client-node';
import { parseImage } from './registry.js';

/** Startup lines for a container, by image family. */
export function startupLines(container: V1Container, podIP: string, now = new Date()): string[] {
  const repo =
    parseImage(container.image ?? '')
      ?.path.split('/')
      .pop() ?? '';
  const family = repo.replace(/-.*$/, '');
  switch (family) {
    case 'nginx':
      return [
        '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
        '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
        '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
        '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
      ];
    case 'redis': {
      const t = redisTime(now);
      return [
        `1:C ${t} # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`,
        `1:C ${t} # Redis version=6.2.6, bits=64, commit=00000000, modified=0, pid=1, just started`,
        `1:C ${t} # Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf`,
        `1:M ${t} * monotonic clock: POSIX clock_gettime`,
        `1:M ${t} * Running mode=standalone, port=6379.`,
        `1:M ${t} # Server initialized`,
        `1:M ${t} * Ready to accept connections`,
      ];
    }
    case 'httpd':
      return [
        `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${podIP}. Set the 'ServerName' directive globally to suppress this message`,
        `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${podIP}. Set the 'ServerName' directive globally to suppress this message`,
        `[${apacheTime(now)}] [mpm_event:notice] [pid 1:tid 139886402389120] AH00489: Apache/2.4.46 (Unix) configured -- resuming normal operations`,
        `[${apacheTime(now)}] [core:notice] [pid 1:tid 139886402389120] AH00094: Command line: 'httpd -D FOREGROUND'`,
      ];
    case 'postgres':
      return [
        'PostgreSQL Database directory appears to contain a database; Skipping initialization',
        '',
        `${now.toISOString().replace('T', ' ').slice(0, 23)} UTC [1] LOG:  starting PostgreSQL 13.1 (Debian 13.1-1.pgdg100+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 8.3.0-6) 8.3.0, 64-bit`,
        `${now.toISOString().replace('T', ' ').slice(0, 23)} UTC [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432`,
        `${now.toISOString().replace('T', ' ').slice(0, 23)} UTC [1] LOG:  database system is ready to accept connections`,
      ];
    default: {
      // Shell-style containers print what their command echoes.
      const cmd = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
      const echoes = [...cmd.matchAll(/echo\s+(?:"([^"]*)"|'([^']*)'|([^;&|]+))/g)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim());
      return echoes.filter(Boolean);
    }
  }
}

/** The last line a container prints as its program exits: none when it ends normally (0) or is killed (137). */
export function crashLine(exitCode: number, message: string | undefined): string | undefined {
  if (message) return message;
  return exitCode === 0 || exitCode === 137 ? undefined : `fatal: exiting with status ${exitCode}`;
}

/**
 * The message an exited container's status says (the kubelet's `terminationMessage`): the
 * program's own, or with `FallbackToLogsOnError`, after a failure, the last 80 log lines (at most
 * 2 KiB).
 */
export function terminationMessageOf(
  spec: V1Container,
  logs: readonly { text: string }[],
  code: number,
  message: string | undefined,
): string | undefined {
  if (message || code === 0 || spec.terminationMessagePolicy !== 'FallbackToLogsOnError') return message;
  return logs
    .slice(-80)
    .map((l) => l.text)
    .join('\n')
    .slice(-2048);
}

function redisTime(d: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

function apacheTime(d: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds() * 1000, 6)} ${d.getUTCFullYear()}`;
}

/** RFC3339Nano timestamp as the kubelet prefixes lines with `timestamps=true`. */
export function rfc3339Nano(d: Date): string {
  const iso = d.toISOString();
  const ms = iso.slice(20, 23);
  return `${iso.slice(0, 19)}.${ms}000000Z`.replace(/\.?0+Z$/, 'Z');
}
