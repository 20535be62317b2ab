/**
 * The kubernetes provider's packaged components (`remote: true` registrations), as the provider
 * constructs them: it renders the objects and registers each as a child through the engine's
 * monitor, where the program's stack transforms see them (pk: provider/pkg/provider/*, k8s-sdk:
 * helm/v4/chart.js, yaml/v2/configFile.js, kustomize/v2/directory.js).
 *
 * Rendering is a stand-in: a "chart" is a directory whose `templates/*.yaml` may use
 * `{{ .Release.Name }}` and `{{ .Values.a.b }}` (from `values.yaml` merged with `values`), and a
 * kustomization lists plain `resources:`. What is exercised is the engine path of the children,
 * not helm or kustomize.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAllYaml, loadYaml } from '@kubernetes/client-node';
import type { Transformable } from './callbacks.js';
import { typeOf } from './k8s-provider.js';
import type { Monitor } from './monitor.js';
import { plain, resourceRef } from './wire.js';

function yamlObjects(text: string): any[] {
  return loadAllYaml(text).filter((o) => o && typeof o === 'object');
}

function lookup(values: any, path: string): unknown {
  return path.split('.').reduce((o: any, k) => o?.[k], values);
}

function renderChart(dir: string, release: string, values: Record<string, unknown>): any[] {
  const defaults = (loadYaml(readFileSync(join(dir, 'values.yaml'), 'utf8')) ?? {}) as Record<string, unknown>;
  const merged = { ...defaults, ...values };
  const templates = join(dir, 'templates');
  return readdirSync(templates)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      yamlObjects(
        readFileSync(join(templates, f), 'utf8')
          .replace(/\{\{\s*\.Release\.Name\s*\}\}/g, release)
          .replace(/\{\{\s*\.Values\.([\w.]+)\s*\}\}/g, (_, p: string) => String(lookup(merged, p) ?? '')),
      ),
    );
}

/**
 * A chart rendered into a release (the stand-in for `helm template`): namespaced objects without
 * a namespace get the release's, as the provider's decoding does. Used by `helm.v4.Chart` and by
 * the `kubernetes:helm:template` invoke of `helm.v3.Chart`.
 */
export function renderHelm(chart: string, release: string, values: Record<string, unknown>, namespace?: string): any[] {
  return renderChart(chart, release, values).map((o) => ({
    ...o,
    metadata: { ...o.metadata, namespace: o.metadata?.namespace ?? namespace },
  }));
}

/** The objects a packaged component renders, from its (plain) inputs. */
function render(type: string, name: string, inputs: any): any[] {
  switch (type) {
    case 'kubernetes:yaml/v2:ConfigGroup': {
      const yamls = [inputs.yaml ?? []].flat().flatMap((t: string) => yamlObjects(t));
      const files = [inputs.files ?? []].flat().flatMap((f: string) => yamlObjects(readFileSync(f, 'utf8')));
      return [...(inputs.objs ?? []), ...yamls, ...files];
    }
    case 'kubernetes:yaml/v2:ConfigFile':
      return yamlObjects(readFileSync(inputs.file, 'utf8'));
    case 'kubernetes:kustomize/v2:Directory': {
      const k = loadYaml(readFileSync(join(inputs.directory, 'kustomization.yaml'), 'utf8')) as { resources?: string[] };
      return (k.resources ?? []).flatMap((f) => yamlObjects(readFileSync(join(inputs.directory, f), 'utf8')));
    }
    case 'kubernetes:helm.sh/v4:Chart':
      return renderHelm(inputs.chart, name, inputs.values ?? {}, inputs.namespace);
    default:
      throw new Error(`remote component ${type} is not modelled by the provider stand-in`);
  }
}

/**
 * Constructs a remote component: registers each rendered object as a child (the program's stack
 * transforms run on each, as the engine does) and returns the component's outputs.
 */
export async function constructComponent(monitor: Monitor, r: Transformable, urn: string): Promise<Record<string, unknown>> {
  const inputs = plain(r.props);
  if (inputs.unknown) return {};
  const prefix = inputs.value.resourcePrefix ?? r.name;
  const children = await Promise.all(
    render(r.type, r.name, inputs.value).map((obj) =>
      monitor.registerChild({
        type: typeOf(obj.apiVersion, obj.kind),
        name: `${prefix}:${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`,
        custom: true,
        parent: urn,
        props: obj,
        dependsOn: [],
        provider: r.provider,
        importId: '',
      }),
    ),
  );
  return { resources: children.map((c) => resourceRef(c.urn, c.id)) };
}
