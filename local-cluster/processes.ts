import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** How to start a component: enough to start it again the same way (same ports, same data). */
export interface ComponentSpec {
  name: string;
  command: string;
  args: string[];
  logFile: string;
  cwd?: string;
}

/** A started component: its process, how it was started, and where its log of this start begins. */
export interface Component extends ComponentSpec {
  child: ChildProcess;
  /** Size of `logFile` when this process started (its own lines come after). */
  logOffset: number;
}

/** Starts `spec.command` in its own process group with output appended to `spec.logFile`. */
export function startComponent(spec: ComponentSpec): Component {
  const fd = openSync(spec.logFile, 'a');
  const logOffset = fstatSync(fd).size;
  const child = spawn(spec.command, spec.args, { stdio: ['ignore', fd, fd], detached: true, cwd: spec.cwd });
  closeSync(fd);
  child.on('error', () => undefined); // reported through exitCode/logTail by the caller
  return { ...spec, child, logOffset };
}

/** What `file` holds after byte `offset` ('' when unreadable). */
export function logSince(file: string, offset: number): string {
  try {
    return readFileSync(file).subarray(offset).toString('utf8');
  } catch {
    return '';
  }
}

/** The last lines of a component's log, for error messages. */
export function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** True while the process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends `sig` to the process group led by `pid` (or to `pid` alone when it leads none); ignores a gone process. */
export function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Sends SIGTERM to a process group (and SIGCONT, so a frozen one handles it), then SIGKILL after
 * `graceMs` (at once with `graceMs` 0); resolves once it is gone.
 */
export async function killGroup(pid: number, graceMs = 5000): Promise<void> {
  if (!isAlive(pid)) return;
  if (graceMs > 0) {
    signalGroup(pid, 'SIGTERM');
    signalGroup(pid, 'SIGCONT');
  }
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) {
    signalGroup(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(20);
  }
}

/** Synchronous best-effort kill, for `process.on('exit')`. */
export function killGroupNow(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
      return;
    } catch {
      /* try the next form */
    }
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
