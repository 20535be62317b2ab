/**
 * A gRPC double of the Pulumi engine for one stack: the `ResourceMonitor` the program registers
 * resources with and the `Engine` service `pulumi.log` talks to, on one server, built from the
 * SDK's own `proto/*_grpc_pb.js` (as pulumi/pulumi's sdk/nodejs/tests/runtime/langhost/run.spec.ts
 * does). It keeps the stack's state between runs like a checkpoint, so a second run is an update.
 *
 * The steps follow the engine (steps.ts, on a bounded number of workers like the engine's step
 * executor), and after a run that did not fail the old objects of create-before-delete
 * replacements are deleted, then what the program no longer declares (everything in a
 * `destroy --run-program`). Stack transforms and resource hooks call the program back through its
 * Callbacks server; `remote: true` components are constructed by components.ts, whose children go
 * through the same registration path; invokes are answered by invokes.ts.
 */
import { createRequire } from 'node:module';
import { type CallbackRef, grpc, resPb, runHook, runTransform, structPb, type Transformable } from './callbacks.js';
import { constructComponent } from './components.js';
import { engineService, type LogRecord } from './engine.js';
import { answerInvoke } from './invokes.js';
import { isKubernetesType, KubernetesProvider, type ProviderOp } from './k8s-provider.js';
import { RELEASE_TYPE, releaseStep } from './release.js';
import { decodeRegistration, registrationResponse } from './requests.js';
import { kubernetesStep, type RunMode, type StateEntry, type StepResult, type StepTimeouts, StepWorkers } from './steps.js';
import { plain } from './wire.js';

export type { RunMode, StateEntry } from './steps.js';

const require = createRequire(import.meta.url);
const resGrpc = require('@pulumi/pulumi/proto/resource_grpc_pb.js');
const engineGrpc = require('@pulumi/pulumi/proto/engine_grpc_pb.js');
const emptyPb = require('google-protobuf/google/protobuf/empty_pb.js');

const PROVIDER_TYPE = 'pulumi:providers:kubernetes';

/** One RegisterResource as it reached the engine (after transforms). */
export interface Registration {
  type: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
  remote: boolean;
  importId: string;
  /** The dependencies the engine records in the state (explicit `dependsOn` and property dependencies). */
  dependencies: string[];
  at: number;
}

/** Options of {@link startMonitor}. */
export interface MonitorOptions {
  project?: string;
  stack?: string;
  /** Stack config (`kubernetes:kubeconfig`, ...), as the engine gives the default provider. */
  config?: Record<string, string>;
  /** The provider stand-in's default await (seconds; the real one is 600). */
  defaultAwaitSeconds?: number;
  /** The `pulumi:autonaming` config's pattern: the name the engine proposes for a resource name. */
  autoname?: (resourceName: string) => string;
  onLog?: (record: LogRecord) => void;
  /** Called before a resource's step runs (e.g. to hold it, as a busy engine would). */
  beforeStep?: (type: string, name: string) => Promise<void> | void;
  /**
   * The engine's `--parallel`: how many steps (custom resources and components) run at once (default
   * unbounded; the engine's default is 4 x CPUs). The others wait for a free worker.
   */
  parallelism?: number;
}

/** The resource options a Kubernetes object's step reads. */
type StepOptions = { ignoreChanges?: string[]; deleteBeforeReplace?: boolean; replaceOnChanges?: string[] };

/** The engine double. */
export class Monitor {
  readonly logs: LogRecord[] = [];
  readonly ops: ProviderOp[] = [];
  readonly state = new Map<string, StateEntry>();
  /**
   * Old objects of create-before-delete replacements, deleted after the program (pp: a pending
   * delete stays in the state until a run reaches its post-steps).
   */
  readonly pendingDeletes: StateEntry[] = [];
  registrations: Registration[] = [];
  /** The invoke tokens of this run, in order. */
  invokes: string[] = [];
  private mode: RunMode = { dryRun: false };
  private registered = new Set<string>();
  private stackTransforms: CallbackRef[] = [];
  private readonly hooks = new Map<string, CallbackRef>();
  private readonly providers = new Map<string, KubernetesProvider>();
  private readonly server = new grpc.Server();
  private readonly workers: StepWorkers;
  address = '';

  constructor(readonly options: MonitorOptions = {}) {
    this.workers = new StepWorkers(options.parallelism);
  }

  get project(): string {
    return this.options.project ?? 'rollout-trace-test';
  }
  get stack(): string {
    return this.options.stack ?? 'dev';
  }

  async start(): Promise<void> {
    const handler = (fn: (req: any) => Promise<any>) => (call: { request: any }, done: (err: any, v?: unknown) => void) =>
      fn.call(this, call.request).then(
        (v) => done(null, v),
        (err: Error) => done({ code: grpc.status.UNKNOWN, details: err.message }),
      );
    const ok = async () => new emptyPb.Empty();
    this.server.addService(resGrpc.ResourceMonitorService, {
      supportsFeature: handler(async () => new resPb.SupportsFeatureResponse().setHassupport(true)),
      registerResource: handler(this.registerResource),
      registerResourceOutputs: handler(this.registerResourceOutputs),
      readResource: handler(this.readResource),
      invoke: handler(this.invoke),
      registerStackTransform: handler(async (req) => {
        this.stackTransforms.push({ target: req.getTarget(), token: req.getToken() });
        return new emptyPb.Empty();
      }),
      registerResourceHook: handler(async (req) => {
        const cb = req.getCallback();
        this.hooks.set(req.getName(), { target: cb.getTarget(), token: cb.getToken() });
        return new emptyPb.Empty();
      }),
      registerStackInvokeTransform: handler(ok),
      signalAndWaitForShutdown: handler(ok),
    });
    this.server.addService(engineGrpc.EngineService, engineService(this.logs, this.options.onLog));
    const port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    this.address = `127.0.0.1:${port}`;
  }

  /** Starts a run: per-run engine state (transforms, registrations) is reset like a new deployment. */
  beginRun(mode: RunMode): void {
    this.mode = mode;
    this.registered = new Set();
    this.registrations = [];
    this.invokes = [];
    this.stackTransforms = [];
  }

  /**
   * After the program: delete what it no longer declares (everything in a destroy), unless the
   * program or a step failed: the engine then deletes nothing (pp
   * pkg/resource/deploy/deployment_executor.go `Execute`: a source error or a cancelled step
   * context returns from its loop before `performDeletes`).
   */
  async endRun(failed = false): Promise<void> {
    if (this.mode.dryRun || this.mode.refresh || failed) return;
    for (const e of this.pendingDeletes.splice(0)) await this.providerFor(e.provider).delete(e.outputs, e.deleteTimeout);
    const doomed = [...this.state.values()].filter((e) => this.mode.destroy || !this.registered.has(e.urn)).reverse();
    for (const e of doomed) {
      if (e.custom && isKubernetesType(e.type)) await this.providerFor(e.provider).delete(e.outputs, e.deleteTimeout);
      this.state.delete(e.urn);
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.tryShutdown(() => resolve());
      setTimeout(() => (this.server.forceShutdown(), resolve()), 2000).unref();
    });
  }

  /** The registered outputs of a component by name (plain values, and whether any was secret). */
  outputsOf(name: string): { value: any; secret: boolean } | undefined {
    const e = [...this.state.values()].find((s) => s.name === name && s.componentOutputs);
    return e && plain(e.componentOutputs);
  }

  private urnOf(type: string, name: string, parent: string): string {
    const parentType = parent ? parent.split('::')[2] : '';
    const chain = parentType && parentType !== 'pulumi:pulumi:Stack' ? `${parentType}$${type}` : type;
    return `urn:pulumi:${this.stack}::${this.project}::${chain}::${name}`;
  }

  private providerFor(ref: string): KubernetesProvider {
    let p = this.providers.get(ref);
    if (!p) {
      const c = this.options.config ?? {};
      const config = Object.fromEntries(
        Object.entries(c)
          .filter(([k]) => k.startsWith('kubernetes:'))
          .map(([k, v]) => [k.slice('kubernetes:'.length), v]),
      );
      p = new KubernetesProvider(config, this.ops, this.options.defaultAwaitSeconds, this.options.autoname);
      this.providers.set(ref, p);
    }
    return p;
  }

  private async registerResource(req: any): Promise<any> {
    const { resource: r, transforms, ...extra } = decodeRegistration(req);
    if (r.type !== 'pulumi:pulumi:Stack') for (const cb of [...transforms, ...this.stackTransforms]) await runTransform(cb, r);
    return registrationResponse(await this.register(r, extra));
  }

  /** A child registered by a remote component's provider: the program's stack transforms see it. */
  async registerChild(r: Transformable): Promise<{ urn: string; id: string }> {
    for (const cb of this.stackTransforms) await runTransform(cb, r);
    return this.register(r);
  }

  /** One registration: from the program, or a child of a remote component (same path). */
  private async register(
    r: Transformable,
    extra: { remote?: boolean; hooks?: any; timeouts?: StepTimeouts } & StepOptions = {},
  ): Promise<StepResult> {
    const urn = this.urnOf(r.type, r.name, r.parent);
    this.registered.add(urn);
    this.registrations.push({
      type: r.type,
      name: r.name,
      urn,
      props: r.props,
      remote: !!extra.remote,
      importId: r.importId,
      dependencies: [...r.dependsOn],
      at: Date.now(),
    });
    await this.options.beforeStep?.(r.type, r.name);
    const old = this.state.get(urn);
    const entry: StateEntry = {
      urn,
      type: r.type,
      name: r.name,
      custom: r.custom,
      id: old?.id ?? '',
      inputs: r.props,
      outputs: {},
      provider: r.provider,
    };
    if (!r.custom) {
      // A component's registration is a step too: it waits for a free worker like any other (pp:
      // step_executor.go). A remote component's construct is not held on a worker here (its
      // children need workers of their own).
      const step = async () => {
        if (extra.remote) entry.outputs = await constructComponent(this, r, urn);
        if (!this.mode.dryRun) this.state.set(urn, { ...entry, componentOutputs: old?.componentOutputs });
        return { urn, id: '', outputs: entry.outputs };
      };
      return extra.remote ? step() : this.workers.run(step);
    }
    const hook = (phase: string) => this.callHooks(extra.hooks, phase, urn, r, entry);
    return this.workers.run(() => this.customStep(r, urn, old, entry, hook, extra));
  }

  /** The step of a custom resource: a provider, a Kubernetes object, or a generic resource. */
  private async customStep(
    r: Transformable,
    urn: string,
    old: StateEntry | undefined,
    entry: StateEntry,
    hook: (phase: string) => Promise<void>,
    { timeouts, ignoreChanges, deleteBeforeReplace, replaceOnChanges }: { timeouts?: StepTimeouts } & StepOptions,
  ): Promise<StepResult> {
    if (r.type === PROVIDER_TYPE) {
      entry.id = old?.id ?? `prov-${Math.random().toString(36).slice(2, 10)}`;
      entry.outputs = r.props;
      const p = plain(r.props);
      if (!p.unknown)
        this.providers.set(
          `${urn}::${entry.id}`,
          new KubernetesProvider(p.value, this.ops, this.options.defaultAwaitSeconds, this.options.autoname),
        );
      if (!this.mode.dryRun) this.state.set(urn, entry);
      return { urn, id: entry.id, outputs: entry.outputs };
    }
    if (r.type === RELEASE_TYPE) {
      const provider = this.providerFor(r.provider);
      const seconds = this.options.defaultAwaitSeconds ?? 300;
      const result = await releaseStep(provider, urn, r.name, r.props, old, entry, this.mode.dryRun, seconds);
      if (!this.mode.dryRun) this.state.set(urn, entry);
      return result;
    }
    if (isKubernetesType(r.type)) {
      const provider = this.providerFor(r.provider);
      const condemn = (e: StateEntry) => this.pendingDeletes.push(e);
      const ctx = {
        mode: this.mode,
        state: this.state,
        provider,
        timeouts,
        hook,
        ignoreChanges,
        deleteBeforeReplace,
        replaceOnChanges,
        condemn,
      };
      return kubernetesStep(ctx, r, urn, old, entry);
    }
    entry.id = old?.id ?? `${r.name}-id`;
    if (this.mode.dryRun) return { urn, id: entry.id, outputs: r.props };
    // A generic resource: its `computed` output (unknown in preview) is its `computeFrom` input.
    entry.outputs = { ...r.props, computed: r.props.computeFrom };
    const phase = old ? 'Update' : 'Create';
    await hook(`Before${phase}`);
    this.state.set(urn, entry);
    await hook(`After${phase}`);
    return { urn, id: entry.id, outputs: entry.outputs };
  }

  private async callHooks(binding: any, phase: string, urn: string, r: Transformable, entry: StateEntry): Promise<void> {
    const names: string[] = binding?.[`get${phase}List`]?.() ?? [];
    for (const name of names) {
      const ref = this.hooks.get(name);
      if (!ref) throw new Error(`resource hook ${name} was never registered`);
      await runHook(ref, { urn, id: entry.id, name: r.name, type: r.type, newInputs: r.props, newOutputs: entry.outputs });
    }
  }

  private async registerResourceOutputs(req: any): Promise<any> {
    const urn = req.getUrn();
    const outputs = req.getOutputs()?.toJavaScript() ?? {};
    const e = this.state.get(urn);
    const name = urn.split('::').pop()!;
    if (e) e.componentOutputs = outputs;
    else
      this.state.set(urn, { urn, type: '', name, custom: false, id: '', inputs: {}, outputs: {}, provider: '', componentOutputs: outputs });
    return new emptyPb.Empty();
  }

  private async readResource(req: any): Promise<any> {
    const urn = this.urnOf(req.getType(), req.getName(), req.getParent());
    const live = await this.providerFor(req.getProvider()).read(req.getType(), req.getId());
    const resp = new resPb.ReadResourceResponse();
    resp.setUrn(urn);
    resp.setProperties(structPb.Struct.fromJavaScript(JSON.parse(JSON.stringify(live))));
    return resp;
  }

  private async invoke(req: any): Promise<any> {
    this.invokes.push(req.getTok());
    const answer = answerInvoke(req.getTok(), req.getArgs()?.toJavaScript() ?? {}, this.state);
    return new resPb.ResourceInvokeResponse().setReturn(structPb.Struct.fromJavaScript(answer));
  }
}

/** Starts an engine double on 127.0.0.1. */
export async function startMonitor(options: MonitorOptions = {}): Promise<Monitor> {
  const m = new Monitor(options);
  await m.start();
  return m;
}
