/**
 * A page rendered in a real browser: Debian's headless Chromium (installed by scripts/ensure-k8s.sh),
 * driven over the DevTools protocol with Node's own WebSocket (no browser download, no npm
 * package). What a test reads: the DOM (through an expression evaluated in the page), the console
 * errors and uncaught exceptions, every request the page made, and a screenshot.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where Debian installs Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (Debian package chromium; scripts/ensure-k8s.sh installs it)`;
}

/** What a rendered page showed. */
export interface RenderedPage<T> {
  /** The value of the expression evaluated in the page once it loaded. */
  value: T;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every URL the page requested (its own file included). */
  requests: string[];
}

/**
 * Opens `file` in headless Chromium at `width` pixels, evaluates `expression` (it must return
 * JSON-able data), and saves a full-page screenshot to `screenshot`. Bounded by `timeoutMs`.
 */
export async function renderInChromium<T>(
  file: string,
  expression: string,
  screenshot: string,
  width = 1100,
  timeoutMs = 60_000,
): Promise<RenderedPage<T>> {
  const profile = mkdtempSync(join(tmpdir(), 'rt-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    'about:blank',
  ];
  // Its own process group: Chromium's helper processes are killed with it.
  const chromium = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const killAll = () => {
    try {
      process.kill(-chromium.pid!, 'SIGKILL');
    } catch {
      chromium.kill('SIGKILL');
    }
  };
  const timer = setTimeout(killAll, timeoutMs);
  try {
    const browserUrl = await devtoolsUrl(chromium);
    const port = new URL(browserUrl).port;
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string }[];
    const page = targets.find((t) => t.type === 'page');
    if (!page) throw new Error('Chromium opened no page');
    const cdp = await connect(page.webSocketDebuggerUrl);
    const errors: string[] = [];
    const requests: string[] = [];
    cdp.on('Runtime.exceptionThrown', (p) =>
      errors.push(`exception: ${JSON.stringify(p.exceptionDetails?.exception?.description ?? p.exceptionDetails?.text)}`),
    );
    cdp.on('Runtime.consoleAPICalled', (p) => p.type === 'error' && errors.push(`console.error: ${JSON.stringify(p.args)}`));
    cdp.on('Log.entryAdded', (p) => p.entry?.level === 'error' && errors.push(`log: ${p.entry.text}`));
    cdp.on('Network.requestWillBeSent', (p) => requests.push(p.request?.url));
    for (const domain of ['Runtime', 'Log', 'Network', 'Page']) await cdp.send(`${domain}.enable`);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false });
    const loaded = cdp.once('Page.loadEventFired');
    await cdp.send('Page.navigate', { url: pathToFileURL(file).href });
    await loaded;
    const evaluated = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    if (evaluated.exceptionDetails) throw new Error(`the expression failed in the page: ${JSON.stringify(evaluated.exceptionDetails)}`);
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
    writeFileSync(screenshot, Buffer.from(shot.data as string, 'base64'));
    cdp.close();
    return { value: evaluated.result.value as T, errors, requests };
  } finally {
    clearTimeout(timer);
    const exited = new Promise((resolve) =>
      chromium.exitCode !== null || chromium.signalCode !== null ? resolve(undefined) : chromium.once('exit', resolve),
    );
    killAll();
    await exited;
    // A helper process may still be writing its last files into the profile: retry, and a temp
    // folder left behind is no failure of the page.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {
      // left in the temp folder
    }
  }
}

/** The browser's DevTools address, from the line Chromium prints on start. */
function devtoolsUrl(chromium: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    chromium.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    chromium.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before it listened:\n${text.slice(-2000)}`)));
  });
}

type Params = Record<string, any>;

/** A minimal DevTools protocol client over one WebSocket. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: Params) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, ((p: Params) => void)[]>();
  ws.addEventListener('message', (m) => {
    const msg = JSON.parse(String(m.data)) as {
      id?: number;
      method?: string;
      params?: Params;
      result?: Params;
      error?: { message: string };
    };
    if (msg.id !== undefined) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error.message));
      else p?.resolve(msg.result ?? {});
    } else if (msg.method) for (const l of listeners.get(msg.method) ?? []) l(msg.params ?? {});
  });
  const on = (method: string, listener: (p: Params) => void) => listeners.set(method, [...(listeners.get(method) ?? []), listener]);
  return {
    send: (method: string, params: Params = {}): Promise<Params> =>
      new Promise((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    on,
    once: (method: string) => new Promise<Params>((resolve) => on(method, resolve)),
    close: () => ws.close(),
  };
}
