/**
 * The ResourceMonitor's RegisterResource request and response, decoded from and encoded to the
 * SDK's protobuf messages (sdk: proto/resource_pb.js), so the engine double works on plain shapes.
 */
import { resPb, structPb, type Transformable } from './callbacks.js';
import type { StepResult, StepTimeouts } from './steps.js';

/** A RegisterResource request, decoded. */
export interface DecodedRegistration {
  resource: Transformable;
  /** The resource's own transforms (callbacks into the program). */
  transforms: { target: string; token: string }[];
  remote: boolean;
  /** The resource hooks binding (`get<Phase>List()` per phase). */
  hooks: any;
  timeouts: StepTimeouts;
  /** The `ignoreChanges` property paths (e.g. `spec.template.spec.containers[0].image`). */
  ignoreChanges: string[];
  /** The `deleteBeforeReplace` resource option; undefined when the program left it unset (the provider decides). */
  deleteBeforeReplace: boolean | undefined;
  /** The `replaceOnChanges` property paths. */
  replaceOnChanges: string[];
}

/** Parses a Go-style duration (`30s`, `5m`, `1h`) into seconds. */
function seconds(d: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(d ?? '');
  if (!m) return undefined;
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
}

/** Decodes a RegisterResourceRequest. */
export function decodeRegistration(req: any): DecodedRegistration {
  const timeouts = req.getCustomtimeouts();
  return {
    resource: {
      type: req.getType(),
      name: req.getName(),
      custom: req.getCustom(),
      parent: req.getParent(),
      props: req.getObject()?.toJavaScript() ?? {},
      dependsOn: req.getDependenciesList(),
      provider: req.getProvider(),
      importId: req.getImportid(),
    },
    transforms: req.getTransformsList().map((c: any) => ({ target: c.getTarget(), token: c.getToken() })),
    remote: req.getRemote(),
    hooks: req.getHooks(),
    timeouts: { create: seconds(timeouts?.getCreate()), update: seconds(timeouts?.getUpdate()), delete: seconds(timeouts?.getDelete()) },
    ignoreChanges: req.getIgnorechangesList(),
    // The SDK sends the option and whether it was set (sdk/nodejs runtime/resource.ts): unset, the
    // provider's Diff decides (pp step_generator.go: `goal.DeleteBeforeReplace` overrides `diff.DeleteBeforeReplace`).
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    replaceOnChanges: req.getReplaceonchangesList(),
  };
}

/** Encodes a step's result as a RegisterResourceResponse. */
export function registrationResponse(result: StepResult): any {
  const resp = new resPb.RegisterResourceResponse();
  resp.setUrn(result.urn);
  resp.setId(result.id);
  resp.setObject(structPb.Struct.fromJavaScript(result.outputs ?? {}));
  return resp;
}
