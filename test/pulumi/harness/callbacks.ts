/**
 * The engine's side of the program's `Callbacks` server (sdk: runtime/callbacks.js): stack and
 * resource transforms and resource hooks are registered as callbacks, and the engine invokes them
 * over gRPC, serialising a TransformRequest / ResourceHookRequest, as the real engine does.
 */
import { createRequire } from 'node:module';
import type * as grpcTypes from '@grpc/grpc-js';

const require = createRequire(import.meta.url);
export const grpc = require('@grpc/grpc-js') as typeof grpcTypes;
export const resPb = require('@pulumi/pulumi/proto/resource_pb.js');
const callbackGrpc = require('@pulumi/pulumi/proto/callback_grpc_pb.js');
const callbackPb = require('@pulumi/pulumi/proto/callback_pb.js');
export const structPb = require('google-protobuf/google/protobuf/struct_pb.js');

/** A registered callback: the program's Callbacks server address and the callback's token. */
export interface CallbackRef {
  target: string;
  token: string;
}

const clients = new Map<string, any>();

/** Invokes one program callback with a serialised request; resolves to the response bytes. */
export function invokeCallback(ref: CallbackRef, request: Uint8Array): Promise<Uint8Array> {
  let client = clients.get(ref.target);
  if (!client) {
    client = new callbackGrpc.CallbacksClient(ref.target, grpc.credentials.createInsecure());
    clients.set(ref.target, client);
  }
  const req = new callbackPb.CallbackInvokeRequest();
  req.setToken(ref.token);
  req.setRequest(request);
  return new Promise((resolve, reject) =>
    client.invoke(req, (err: Error | null, resp: any) => (err ? reject(err) : resolve(resp.getResponse_asU8()))),
  );
}

/** What a transform may change: the properties (wire format) and some options. */
export interface Transformable {
  type: string;
  name: string;
  custom: boolean;
  parent: string;
  props: Record<string, unknown>;
  dependsOn: string[];
  provider: string;
  importId: string;
}

/** Runs one transform callback as the engine does, updating `r` in place. */
export async function runTransform(ref: CallbackRef, r: Transformable): Promise<void> {
  const req = new resPb.TransformRequest();
  req.setType(r.type);
  req.setName(r.name);
  req.setCustom(r.custom);
  req.setParent(r.parent);
  req.setProperties(structPb.Struct.fromJavaScript(r.props));
  const opts = new resPb.TransformResourceOptions();
  opts.setDependsOnList(r.dependsOn);
  opts.setProvider(r.provider);
  if (r.importId) opts.setImport(r.importId);
  req.setOptions(opts);
  const bytes = await invokeCallback(ref, req.serializeBinary());
  const resp = resPb.TransformResponse.deserializeBinary(bytes);
  const props = resp.getProperties();
  if (props) r.props = props.toJavaScript();
  const newOpts = resp.getOptions();
  if (newOpts) {
    r.dependsOn = newOpts.getDependsOnList();
    r.provider = newOpts.getProvider() || r.provider;
    r.importId = newOpts.getImport?.() || r.importId;
  }
}

/** Calls a resource hook (before/after create/update/delete) as the engine does. */
export async function runHook(
  ref: CallbackRef,
  args: { urn: string; id: string; name: string; type: string; newInputs?: unknown; newOutputs?: unknown; oldOutputs?: unknown },
): Promise<void> {
  const req = new resPb.ResourceHookRequest();
  req.setUrn(args.urn);
  req.setId(args.id);
  req.setName(args.name);
  req.setType(args.type);
  if (args.newInputs) req.setNewInputs(structPb.Struct.fromJavaScript(args.newInputs));
  if (args.newOutputs) req.setNewOutputs(structPb.Struct.fromJavaScript(args.newOutputs));
  if (args.oldOutputs) req.setOldOutputs(structPb.Struct.fromJavaScript(args.oldOutputs));
  const resp = resPb.ResourceHookResponse.deserializeBinary(await invokeCallback(ref, req.serializeBinary()));
  if (resp.getError()) throw new Error(`hook failed: ${resp.getError()}`);
}
