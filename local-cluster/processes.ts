import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** A started component: its process and the file its output goes to. */
export interface Component {
  name: string;
  child: ChildProcess;
  logFile: string;
}

/** Starts `command` in its own process group with output to `logFile`. */
export function startComponent(name: string, command: string, args: string[], logFile: string, cwd?: string): Component {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', fd, fd], detached: true, cwd });
  closeSync(fd);
  child.on('error', () => undefined); // reported through exitCode/logTail by the caller
  return { name, child, logFile };
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

/** Sends SIGTERM to a process group, then SIGKILL after `graceMs`; resolves once it is gone. */
export async function killGroup(pid: number, graceMs = 5000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  if (!isAlive(pid)) return;
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) {
    signal('SIGKILL');
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
