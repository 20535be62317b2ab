/**
 * The end of a step for the children of provider-side components (`helm.v4.Chart`, `yaml.v2`,
 * `kustomize.v2`), which have no resource object in the program: the engine-side transform sees
 * them, but their outputs never reach the program. What does is the component's own registration:
 * its URN resolves once the provider's Construct returned, which waits for every child's step
 * (k8s-sdk helm/v4/chart.js; pp the engine's Construct). That is the children's "provider
 * returned", and the cluster then says what was written.
 */
import * as pulumi from '@pulumi/pulumi';
import type { Baseline, Written } from './baseline.js';
import { readWorkload } from './deployment-lookup.js';
import { outputValue } from './outputs.js';
import type { RunState } from './run-state.js';

/** The registration of a component with URN `urn`: settles once it answered. */
function registration(run: RunState, urn: string): { done: Promise<void>; end: () => void } {
  let entry = run.componentRegistrations.get(urn);
  if (!entry) {
    let end!: () => void;
    const done = new Promise<void>((resolve) => (end = resolve));
    entry = { done, end };
    run.componentRegistrations.set(urn, entry);
  }
  return entry;
}

/**
 * Notes a resource the program constructs (called from the stack transformation, before the
 * resource registered): if it is a component, {@link componentRegistered} of its URN settles once
 * its registration answered, or failed (a Construct whose child failed ends the step too).
 */
export function noteComponent(run: RunState, resource: pulumi.Resource): void {
  // The resource's URN exists once its constructor returned (after the transformation).
  void Promise.resolve().then(async () => {
    if (!pulumi.ComponentResource.isInstance(resource)) return;
    const urn = await outputValue(resource.urn).catch(() => undefined);
    if (urn) registration(run, urn).end();
  });
}

/** Settles once the program's component with URN `urn` registered (never, when the program constructed none). */
export function componentRegistered(run: RunState, urn: string): Promise<void> {
  return registration(run, urn).done;
}

/**
 * What the provider wrote, for a child of a provider-side component: once its step ended
 * (`stepEnded`), the live object as the provider would have returned it; null when none lives.
 * With no name to read (an auto-named child), only the step's end is known.
 */
export function writtenAfterStep(b: Baseline, stepEnded: Promise<unknown>): { written: Promise<Written | null>; provided: Promise<void> } {
  const provided = stepEnded.then(
    () => undefined,
    () => undefined,
  );
  const name = b.plan.name ?? b.live?.metadata?.name;
  const written = name
    ? provided.then(async (): Promise<Written | null> => {
        const now = await readWorkload(b.kc, b.namespace, name, undefined, b.plan.kind);
        const meta = now?.metadata;
        return meta?.name ? { name: meta.name, generation: meta.generation, uid: meta.uid } : null;
      })
    : new Promise<never>(() => {});
  written.catch(() => undefined);
  return { written, provided };
}
