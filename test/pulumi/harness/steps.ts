/**
 * The engine's steps for one Kubernetes object (pp: pkg/resource/deploy/step_generator.go,
 * step_executor.go), as the monitor double runs them: same when the inputs did not change,
 * update, replace (replace-step.ts: the new object first and the old one deleted after the
 * program, or delete-before-replace when the option or pk's Diff asks for it), import, and in
 * `destroy --run-program` a same step with the old outputs. Steps run on a bounded number of
 * workers ({@link StepWorkers}), like the engine's step executor under `--parallel`.
 */
import type { Transformable } from './callbacks.js';
import { InitError, type KubernetesProvider } from './k8s-provider.js';
import { replacementOf, replaceStep } from './replace-step.js';
import { plain, secretWire } from './wire.js';

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
  /** The provider's partial failure (its await failed): the next update continues awaiting. */
  initErrors?: string[];
}

/** How the next run is executed. */
export interface RunMode {
  dryRun: boolean;
  /** `pulumi destroy --run-program`. */
  destroy?: boolean;
  /** `pulumi refresh --run-program`: each resource in the state is read, none written. */
  refresh?: boolean;
  /** `--target`: the resource names updated; any other resource in the state gets a same step. */
  targets?: string[];
  /**
   * `--replace`: the resource names replaced whatever their diff (pp: step_generator.go
   * `isTargetedReplace` L216, `diff` L2891 answers "replace, blaming the id" without asking the provider).
   */
  replace?: string[];
}

/** A resource's custom timeouts, in seconds. */
export interface StepTimeouts {
  create?: number;
  update?: number;
  delete?: number;
}

/** What one Kubernetes step needs from the engine. */
export interface StepContext {
  mode: RunMode;
  state: Map<string, StateEntry>;
  provider: KubernetesProvider;
  timeouts?: StepTimeouts;
  /** Calls the resource's hooks of one phase (`BeforeCreate`, `AfterDelete`, ...). */
  hook: (phase: string) => Promise<void>;
  /** The resource's `ignoreChanges` paths. */
  ignoreChanges?: string[];
  /** The resource's `deleteBeforeReplace` option (undefined: unset, the provider's Diff decides). */
  deleteBeforeReplace?: boolean;
  /** The resource's `replaceOnChanges` paths. */
  replaceOnChanges?: string[];
  /**
   * Keeps the old object of a create-before-delete replacement for the deletes after the program
   * (pp: deployment_executor.go `performPostSteps`).
   */
  condemn: (old: StateEntry) => void;
}

/** The result of a step, as RegisterResource answers it. */
export interface StepResult {
  urn: string;
  id: string;
  outputs: any;
}

/**
 * The engine's step executor: at most `size` steps run at once (the engine's `--parallel`,
 * by default 4 x CPUs); the others wait, first come first served. Unbounded when `size` is unset.
 */
export class StepWorkers {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size = Number.POSITIVE_INFINITY) {}

  /** Runs `step` on a free worker (waiting for one first). */
  async run<T>(step: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await step();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

/** One step of a Kubernetes object: same, create, update, replace or import. */
export async function kubernetesStep(
  ctx: StepContext,
  r: Transformable,
  urn: string,
  old: StateEntry | undefined,
  entry: StateEntry,
): Promise<StepResult> {
  const { mode, state, provider, timeouts } = ctx;
  if (old && ctx.ignoreChanges?.length) entry.inputs = r.props = withOldValues(r.props, old.inputs, ctx.ignoreChanges);
  const inputs = plain(r.props);
  entry.deleteTimeout = timeouts?.delete;
  if (mode.destroy) return old ? { urn, id: old.id, outputs: old.outputs } : { urn, id: '', outputs: {} };
  if (mode.refresh) return refreshStep(ctx, urn, old);
  // Not targeted: a same step with the old state (pp: step_generator.go, IsTargeted).
  if (mode.targets && old && !mode.targets.includes(r.name)) return { urn, id: old.id, outputs: old.outputs };
  if (r.importId) {
    const live = await provider.read(r.type, r.importId);
    if (!mode.dryRun) state.set(urn, { ...entry, id: r.importId, outputs: live });
    return { urn, id: r.importId, outputs: live };
  }
  const obj = provider.objectOf(r.type, r.name, inputs.value, old?.outputs);
  // A same step hands back the stored outputs, in a preview too (pp: step.go SameStep): their
  // generation is older than the live one after an outside scale (preview-change.ts).
  const sameInPreview = mode.dryRun && old && !old.initErrors?.length && !mode.replace?.includes(r.name);
  if (
    sameInPreview &&
    JSON.stringify(old.inputs) === JSON.stringify(r.props) &&
    !(await provider.replacesUnready(inputs.value, old.outputs))
  ) {
    return { urn, id: old.id, outputs: old.outputs };
  }
  if (mode.dryRun || inputs.unknown) return { urn, id: old?.id ?? '', outputs: mode.dryRun ? r.props : obj };
  // Unchanged inputs are a same step, unless the last step left InitErrors: then the engine sends
  // an empty update to continue awaiting (pp: step_generator.go, "if hasInitErrors"). The engine
  // asks the provider's Diff even then, and pk answers "replace" for a Job not complete that
  // carries pulumi.com/replaceUnready (provider.go Diff).
  const targeted = !!old && !!mode.replace?.includes(r.name);
  const same = old && !old.initErrors?.length && JSON.stringify(old.inputs) === JSON.stringify(r.props);
  if (old && same && !targeted && !(await provider.replacesUnready(inputs.value, old.outputs))) {
    state.set(urn, old);
    return { urn, id: old.id, outputs: old.outputs };
  }
  try {
    return await writeStep(ctx, r, urn, old, entry, inputs, obj);
  } catch (err) {
    if (!(err instanceof InitError) || mode.dryRun) throw err;
    // A partial failure is checkpointed with the live object and its InitErrors.
    const live = err.live;
    state.set(urn, { ...entry, id: `${live.metadata?.namespace ?? ''}/${live.metadata?.name}`, outputs: live, initErrors: [err.message] });
    throw err;
  }
}

async function writeStep(
  ctx: StepContext,
  r: Transformable,
  urn: string,
  old: StateEntry | undefined,
  entry: StateEntry,
  inputs: ReturnType<typeof plain>,
  obj: any,
): Promise<StepResult> {
  const { state, provider, timeouts, hook } = ctx;
  let outputs: any;
  const replacement = old && (await replacementOf(ctx, r, old, inputs.value));
  if (old && replacement) {
    outputs = await replaceStep(ctx, r, old, entry, inputs.value, replacement);
  } else {
    const phase = old ? 'Update' : 'Create';
    await hook(`Before${phase}`);
    outputs = await provider.apply(r.type, obj, old ? 'update' : 'create', old ? timeouts?.update : timeouts?.create, old?.outputs);
    entry.outputs = outputs;
    await hook(`After${phase}`);
  }
  entry.id = `${outputs.metadata?.namespace ?? ''}/${outputs.metadata?.name}`;
  entry.initErrors = undefined;
  if (inputs.secret) entry.outputs = { ...outputs, spec: secretWire(outputs.spec) };
  state.set(urn, entry);
  return { urn, id: entry.id, outputs: entry.outputs };
}

/**
 * A refresh step (pp: step_generator.go refreshMode: a resource not in the state is a skipped
 * create): the provider reads the live object and checks its readiness even with `waitFor` (pk:
 * await.go Read, only skipAwait skips it); a Deployment that is not ready is a partial failure,
 * kept as InitErrors, so the next update continues awaiting.
 */
async function refreshStep(ctx: StepContext, urn: string, old: StateEntry | undefined): Promise<StepResult> {
  if (!old) return { urn, id: '', outputs: {} };
  const { live, notReady } = await ctx.provider.refresh(old.outputs);
  const entry = { ...old, outputs: live, initErrors: notReady ? [notReady] : undefined };
  if (!ctx.mode.dryRun) ctx.state.set(urn, entry);
  return { urn, id: old.id, outputs: live };
}

/**
 * `ignoreChanges`: each path takes its old input value (pp: step_generator.go
 * processIgnoreChanges), for the dotted paths with `[n]` indices the tests use.
 */
function withOldValues(props: Record<string, unknown>, oldInputs: any, paths: string[]): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(props));
  for (const path of paths) {
    const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
    const old = keys.reduce((o: any, k) => o?.[k], oldInputs);
    const parent = keys.slice(0, -1).reduce((o: any, k) => o?.[k], copy);
    if (parent && old !== undefined) parent[keys[keys.length - 1]!] = old;
  }
  return copy;
}
