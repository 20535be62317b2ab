/**
 * A replacement, ordered as the engine orders it (pp pkg/resource/deploy/step_generator.go at
 * commit 1b594989): by default create-before-delete, the new object first and the old one deleted
 * after the program ended (L2159-2164: "the delete step is generated later on, after all
 * creates/updates finish"; deployment_executor.go `performPostSteps` → `GenerateDeletes`, L2423 a
 * `DeleteReplacementStep`), unless the `deleteBeforeReplace` option or the provider's Diff asks to
 * delete first (L2043-2047: the option overrides the Diff). The new object is checked without the
 * old inputs (L2003-2020; `--replace`: L1325), so an auto-named object gets a new name.
 */
import type { Transformable } from './callbacks.js';
import { InitError, type KubernetesProvider, needsReplace } from './k8s-provider.js';
import type { StateEntry, StepContext } from './steps.js';
import { plain } from './wire.js';

/** How the engine replaces an object. */
export interface Replacement {
  /** Delete the old object (and wait for it) before creating the new one. */
  deleteFirst: boolean;
}

/** Whether (and how) the engine replaces `old` with the new inputs `news`; undefined for an update. */
export async function replacementOf(ctx: StepContext, r: Transformable, old: StateEntry, news: any): Promise<Replacement | undefined> {
  const olds = old.inputs ? plain(old.inputs).value : {};
  // `--replace`: the engine's diff answers "replace" blaming the id without asking the provider
  // (step_generator.go `diff` L2891), so with no DeleteBeforeReplace.
  const targeted = !!ctx.mode.replace?.includes(r.name);
  const providerReplaces = !targeted && (needsReplace(olds, news, r.type) || (await ctx.provider.replacesUnready(news, old.outputs)));
  // `replaceOnChanges` turns the provider's changes into replacements, keeping its DeleteBeforeReplace
  // (step_generator.go `applyReplaceOnChanges`).
  const onChanges = !targeted && changedUnder(ctx.replaceOnChanges ?? [], olds, news);
  if (!targeted && !providerReplaces && !onChanges) return undefined;
  const deleteFirst = ctx.deleteBeforeReplace ?? (providerReplaces && pkDeletesFirst(ctx.provider, r, news, old.outputs));
  return { deleteFirst };
}

/**
 * pk's Diff `DeleteBeforeReplace` (pulumi-kubernetes provider/pkg/provider/provider.go L1649-1661,
 * commit 94977969): the provider replaces the object, the program names it itself (not auto-named,
 * not `generateName`), and the new object has the live one's name and namespace.
 */
function pkDeletesFirst(provider: KubernetesProvider, r: Transformable, news: any, oldLive: any): boolean {
  if (!news?.metadata?.name) return false;
  const next = provider.objectOf(r.type, r.name, news);
  return next.metadata.name === oldLive?.metadata?.name && next.metadata.namespace === oldLive?.metadata?.namespace;
}

/**
 * Whether a value under one of `paths` changed (`*` is every property; dotted paths with `[n]`
 * indices, as the tests write them).
 */
function changedUnder(paths: string[], olds: any, news: any): boolean {
  const at = (o: any, keys: string[]) => keys.reduce((v, k) => v?.[k], o);
  return paths.some((path) => {
    const keys = path === '*' ? [] : path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
    return JSON.stringify(at(olds, keys) ?? null) !== JSON.stringify(at(news, keys) ?? null);
  });
}

/** Runs the replacement: returns the new object's outputs (also set on `entry`). */
export async function replaceStep(
  ctx: StepContext,
  r: Transformable,
  old: StateEntry,
  entry: StateEntry,
  news: any,
  { deleteFirst }: Replacement,
): Promise<any> {
  const { provider, timeouts, hook } = ctx;
  const next = provider.objectOf(r.type, r.name, news);
  if (deleteFirst) {
    await hook('BeforeDelete');
    await provider.delete(old.outputs, old.deleteTimeout);
    await hook('AfterDelete');
    await hook('BeforeCreate');
    entry.outputs = await provider.apply(r.type, next, 'create', timeouts?.create);
    await hook('AfterCreate');
    return entry.outputs;
  }
  // pk's Create of a named object that still exists fails ("already exists"): such a replacement
  // needs the `deleteBeforeReplace` option.
  await hook('BeforeCreate');
  try {
    entry.outputs = await provider.apply(r.type, next, 'create-new', timeouts?.create);
  } catch (err) {
    // A create whose await failed still condemns the old object (pp step.go `CreateStep.Apply`
    // marks it `Delete` on a partial failure too).
    if (err instanceof InitError) ctx.condemn(old);
    throw err;
  }
  ctx.condemn(old);
  await hook('AfterCreate');
  return entry.outputs;
}
