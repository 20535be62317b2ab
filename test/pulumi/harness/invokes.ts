/**
 * The invokes the engine double answers (the engine routes them to the kubernetes provider, or
 * answers `pulumi:pulumi:getResource` itself):
 * - `pulumi:pulumi:getResource`: a resource reference rehydrated by the program (a remote
 *   component's `resources`), answered from the stack's state;
 * - `kubernetes:yaml:decode` (`{ text }` → `{ result: objects }`): how the v1
 *   `yaml.ConfigFile`/`ConfigGroup` of the Node SDK decode YAML before they register the
 *   children themselves (k8s-sdk: yaml/yaml.js `yamlLoadAll`);
 * - `kubernetes:helm:template` (`{ jsonOpts }`, a JSON text with `path` or `chart`, `values`,
 *   `namespace` and `release_name` → `{ result: objects }`): how `helm.v3.Chart` renders before it
 *   registers the children itself (k8s-sdk: helm/v3/helm.js `parseChart`). Rendering is the
 *   stand-in of components.ts.
 */
import { loadAllYaml } from '@kubernetes/client-node';
import { renderHelm } from './components.js';
import type { StateEntry } from './steps.js';
import { plain } from './wire.js';

/** The invoke's return value, or an empty object for an invoke the double does not model. */
export function answerInvoke(token: string, args: any, state: Map<string, StateEntry>): Record<string, unknown> {
  switch (token) {
    case 'pulumi:pulumi:getResource': {
      const e = state.get(plain(args).value.urn);
      return { urn: e?.urn ?? '', id: e?.id ?? '', state: e?.outputs ?? {} };
    }
    case 'kubernetes:yaml:decode':
      return { result: loadAllYaml(args.text).filter(Boolean) };
    case 'kubernetes:helm:template': {
      const opts = JSON.parse(args.jsonOpts);
      const chart = opts.path ?? opts.chart;
      if (typeof chart !== 'string') throw new Error(`helm template: no chart path in ${args.jsonOpts}`);
      return { result: renderHelm(chart, opts.release_name, opts.values ?? {}, opts.namespace) };
    }
    default:
      return {};
  }
}
