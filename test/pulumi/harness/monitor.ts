/**
 * A gRPC double of the Pulumi engine for one stack: the `ResourceMonitor` the program registers
 * resources with and the `Engine` service `pulumi.log` talks to, on one server, built from the
 * SDK's own `proto/*_grpc_pb.js` (as pulumi/pulumi's sdk/nodejs/tests/runtime/langhost/run.spec.ts
 * does). It keeps the stack's state between runs like a checkpoint, so a second run is an update.
 *
 * Step decisions follow the engine (pp: pkg/resource/deploy/step_generator.go): same when the
 * inputs did not change, update, replace (a named object is deleted before it is re-created),
 * delete of what the program no longer declares, and in `destroy --run-program` a same step
 * (old outputs, no provider call) for every custom resource, then deletes. Stack transforms and
 * resource hooks call the program back through its Callbacks server; `remote: true` components
 * are constructed by components.ts, whose children go through the same registration path.
 */
import { createRequire } from 'node:module';
import { type CallbackRef, grpc, resPb, runHook, runTransform, structPb, type Transformable } from './callbacks.js';
import { constructComponent } from './components.js';
import { engineService, type LogRecord } from './engine.js';
import { isKubernetesType, KubernetesProvider, needsReplace, type ProviderOp } from './k8s-provider.js';
import { plain, secretWire } from './wire.js';

const require = createRequire(import.meta.url);
const resGrpc = require('@pulumi/pulumi/proto/resource_grpc_pb.js');
const engineGrpc = require('@pulumi/pulumi/proto/engine_grpc_pb.js');
const emptyPb = require('google-protobuf/google/protobuf/empty_pb.js');
const { loadAllYaml } = require('@kubernetes/client-node') as typeof import('@kubernetes/client-node');

const PROVIDER_TYPE = 'pulumi:providers:kubernetes';

/** A resource in the stack's state (the checkpoint). */
export interface StateEntry {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  id: string;
  inputs: unknown;
  outputs: any;
  provider: string;
  deleteTimeout?: number;
  /** A component's registered outputs, wire format (secrets kept). */
  componentOutputs?: Record<string, unknown>;
}

/** One RegisterResource as it reached the engine (after transforms). */
export interface Registration {
  type: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
  remote: boolean;
  importId: string;
  at: number;
}

/** How the next run is executed. */
export interface RunMode {
  dryRun: boolean;
  /** `pulumi destroy --run-program`. */
  destroy?: boolean;
}

/** Parses a Go-style duration (`30s`, `5m`, `1h`) into seconds. */
function seconds(d: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(d ?? '');
  if (!m) return undefined;
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
}

/** Options of {@link startMonitor}. */
export interface MonitorOptions {
  project?: string;
  stack?: string;
  /** Stack config (`kubernetes:kubeconfig`, ...), as the engine gives the default provider. */
  config?: Record<string, string>;
  /** The provider stand-in's default await (seconds; the real one is 600). */
  defaultAwaitSeconds?: number;
  onLog?: (record: LogRecord) => void;
  /** Called before a resource's step runs (e.g. to hold it, as a busy engine would). */
  beforeStep?: (type: string, name: string) => Promise<void> | void;
}

/** The engine double. */
export class Monitor {
  readonly logs: LogRecord[] = [];
  readonly ops: ProviderOp[] = [];
  readonly state = new Map<string, StateEntry>();
  registrations: Registration[] = [];
  private mode: RunMode = { dryRun: false };
  private registered = new Set<string>();
  private stackTransforms: CallbackRef[] = [];
  private readonly hooks = new Map<string, CallbackRef>();
  private readonly providers = new Map<string, KubernetesProvider>();
  private readonly server = new grpc.Server();
  address = '';

  constructor(readonly options: MonitorOptions = {}) {}

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
    this.stackTransforms = [];
  }

  /** After the program: delete what it no longer declares (everything in a destroy). */
  async endRun(): Promise<void> {
    if (this.mode.dryRun) return;
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
      p = new KubernetesProvider(config, this.ops, this.options.defaultAwaitSeconds);
      this.providers.set(ref, p);
    }
    return p;
  }

  private async registerResource(req: any): Promise<any> {
    const r: Transformable = {
      type: req.getType(),
      name: req.getName(),
      custom: req.getCustom(),
      parent: req.getParent(),
      props: req.getObject()?.toJavaScript() ?? {},
      dependsOn: req.getDependenciesList(),
      provider: req.getProvider(),
      importId: req.getImportid(),
    };
    const own = req.getTransformsList().map((c: any) => ({ target: c.getTarget(), token: c.getToken() }));
    if (r.type !== 'pulumi:pulumi:Stack') for (const cb of [...own, ...this.stackTransforms]) await runTransform(cb, r);
    const timeouts = req.getCustomtimeouts();
    const result = await this.register(r, {
      remote: req.getRemote(),
      hooks: req.getHooks(),
      timeouts: { create: seconds(timeouts?.getCreate()), update: seconds(timeouts?.getUpdate()), delete: seconds(timeouts?.getDelete()) },
    });
    const resp = new resPb.RegisterResourceResponse();
    resp.setUrn(result.urn);
    resp.setId(result.id);
    resp.setObject(structPb.Struct.fromJavaScript(result.outputs ?? {}));
    return resp;
  }

  /** A child registered by a remote component's provider: the program's stack transforms see it. */
  async registerChild(r: Transformable): Promise<{ urn: string; id: string }> {
    for (const cb of this.stackTransforms) await runTransform(cb, r);
    return this.register(r);
  }

  /** One registration: from the program, or a child of a remote component (same path). */
  private async register(
    r: Transformable,
    extra: { remote?: boolean; hooks?: any; timeouts?: { create?: number; update?: number; delete?: number } } = {},
  ): Promise<{ urn: string; id: string; outputs: any }> {
    const urn = this.urnOf(r.type, r.name, r.parent);
    this.registered.add(urn);
    this.registrations.push({
      type: r.type,
      name: r.name,
      urn,
      props: r.props,
      remote: !!extra.remote,
      importId: r.importId,
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
      if (extra.remote) entry.outputs = await constructComponent(this, r, urn);
      if (!this.mode.dryRun) this.state.set(urn, { ...entry, componentOutputs: old?.componentOutputs });
      return { urn, id: '', outputs: entry.outputs };
    }
    if (r.type === PROVIDER_TYPE) {
      entry.id = old?.id ?? `prov-${Math.random().toString(36).slice(2, 10)}`;
      entry.outputs = r.props;
      const p = plain(r.props);
      if (!p.unknown)
        this.providers.set(`${urn}::${entry.id}`, new KubernetesProvider(p.value, this.ops, this.options.defaultAwaitSeconds));
      if (!this.mode.dryRun) this.state.set(urn, entry);
      return { urn, id: entry.id, outputs: entry.outputs };
    }
    if (!isKubernetesType(r.type)) {
      entry.id = old?.id ?? `${r.name}-id`;
      if (this.mode.dryRun) return { urn, id: entry.id, outputs: r.props };
      // A generic resource: its `computed` output (unknown in preview) is its `computeFrom` input.
      entry.outputs = { ...r.props, computed: r.props.computeFrom };
      const phase = old ? 'Update' : 'Create';
      await this.callHooks(extra.hooks, `Before${phase}`, urn, r, entry);
      this.state.set(urn, entry);
      await this.callHooks(extra.hooks, `After${phase}`, urn, r, entry);
      return { urn, id: entry.id, outputs: entry.outputs };
    }
    return this.kubernetesStep(r, urn, old, entry, extra);
  }

  private async kubernetesStep(
    r: Transformable,
    urn: string,
    old: StateEntry | undefined,
    entry: StateEntry,
    extra: { hooks?: any; timeouts?: { create?: number; update?: number; delete?: number } },
  ): Promise<{ urn: string; id: string; outputs: any }> {
    const provider = this.providerFor(r.provider);
    const inputs = plain(r.props);
    entry.deleteTimeout = extra.timeouts?.delete;
    if (this.mode.destroy) return old ? { urn, id: old.id, outputs: old.outputs } : { urn, id: '', outputs: {} };
    if (r.importId) {
      const live = await provider.read(r.type, r.importId);
      if (!this.mode.dryRun) this.state.set(urn, { ...entry, id: r.importId, outputs: live });
      return { urn, id: r.importId, outputs: live };
    }
    const obj = provider.objectOf(r.type, r.name, inputs.value, old?.outputs);
    if (this.mode.dryRun || inputs.unknown) return { urn, id: old?.id ?? '', outputs: this.mode.dryRun ? r.props : obj };
    if (old && JSON.stringify(old.inputs) === JSON.stringify(r.props)) {
      this.state.set(urn, old);
      return { urn, id: old.id, outputs: old.outputs };
    }
    const hook = (phase: string) => this.callHooks(extra.hooks, phase, urn, r, entry);
    let outputs: any;
    if (old && needsReplace(old.inputs && plain(old.inputs).value, inputs.value)) {
      await hook('BeforeDelete');
      await provider.delete(old.outputs, old.deleteTimeout);
      await hook('AfterDelete');
      await hook('BeforeCreate');
      outputs = await provider.apply(r.type, provider.objectOf(r.type, r.name, inputs.value), 'create', extra.timeouts?.create);
      entry.outputs = outputs;
      await hook('AfterCreate');
    } else {
      const phase = old ? 'Update' : 'Create';
      await hook(`Before${phase}`);
      outputs = await provider.apply(
        r.type,
        obj,
        old ? 'update' : 'create',
        old ? extra.timeouts?.update : extra.timeouts?.create,
        old?.outputs,
      );
      entry.outputs = outputs;
      await hook(`After${phase}`);
    }
    entry.id = `${outputs.metadata?.namespace ?? ''}/${outputs.metadata?.name}`;
    if (inputs.secret) entry.outputs = { ...outputs, spec: secretWire(outputs.spec) };
    this.state.set(urn, entry);
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
    if (e) e.componentOutputs = outputs;
    else
      this.state.set(urn, {
        urn,
        type: '',
        name: urn.split('::').pop()!,
        custom: false,
        id: '',
        inputs: {},
        outputs: {},
        provider: '',
        componentOutputs: outputs,
      });
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
    const resp = new resPb.ResourceInvokeResponse();
    const args = req.getArgs()?.toJavaScript() ?? {};
    if (req.getTok() === 'pulumi:pulumi:getResource') {
      // A resource reference rehydrated by the program (e.g. a remote component's `resources`).
      const e = this.state.get(plain(args).value.urn);
      resp.setReturn(structPb.Struct.fromJavaScript({ urn: e?.urn ?? '', id: e?.id ?? '', state: e?.outputs ?? {} }));
    } else if (req.getTok() === 'kubernetes:yaml:decode') {
      resp.setReturn(structPb.Struct.fromJavaScript({ result: loadAllYaml(args.text).filter(Boolean) }));
    } else {
      resp.setReturn(structPb.Struct.fromJavaScript({}));
    }
    return resp;
  }
}

/** Starts an engine double on 127.0.0.1. */
export async function startMonitor(options: MonitorOptions = {}): Promise<Monitor> {
  const m = new Monitor(options);
  await m.start();
  return m;
}
