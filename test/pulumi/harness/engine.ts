/**
 * A gRPC double of the Pulumi engine's `Engine` service (the one `pulumi.log` talks to), built
 * from the SDK's own service definition. It records every LogRequest, exactly what the real
 * engine would turn into progress-display rows and Diagnostics.
 */
import { createRequire } from 'node:module';
import type * as grpcTypes from '@grpc/grpc-js';

const require = createRequire(import.meta.url);
// The SDK's generated CommonJS stubs (and the grpc-js copy they were built for).
const grpc = require('@grpc/grpc-js') as typeof grpcTypes;
const engineGrpc = require('@pulumi/pulumi/proto/engine_grpc_pb.js');
const enginePb = require('@pulumi/pulumi/proto/engine_pb.js');
const emptyPb = require('google-protobuf/google/protobuf/empty_pb.js');

/** One recorded `pulumi.log` call. */
export interface LogRecord {
  /** 0 debug, 1 info, 2 warning, 3 error. */
  severity: number;
  urn: string;
  ephemeral: boolean;
  message: string;
  streamId: number;
  /** When the engine received it (ms since the epoch). */
  at: number;
}

/** A running Engine double. */
export interface EngineDouble {
  address: string;
  logs: LogRecord[];
  stop(): Promise<void>;
}

type Call = { request: any };
type Done = (err: unknown, value?: unknown) => void;

/** The Engine service implementation: records logs into `logs`, keeps the root resource. */
export function engineService(logs: LogRecord[], onLog?: (record: LogRecord) => void): grpcTypes.UntypedServiceImplementation {
  let rootUrn = '';
  return <grpcTypes.UntypedServiceImplementation>(<unknown>{
    log(call: Call, done: Done) {
      const r = call.request;
      const record: LogRecord = {
        severity: r.getSeverity(),
        urn: r.getUrn(),
        ephemeral: r.getEphemeral(),
        message: r.getMessage(),
        streamId: r.getStreamid(),
        at: Date.now(),
      };
      logs.push(record);
      onLog?.(record);
      done(null, new emptyPb.Empty());
    },
    getRootResource(_call: Call, done: Done) {
      const resp = new enginePb.GetRootResourceResponse();
      resp.setUrn(rootUrn);
      done(null, resp);
    },
    setRootResource(call: Call, done: Done) {
      rootUrn = call.request.getUrn();
      done(null, new enginePb.SetRootResourceResponse());
    },
    startDebugging(_call: Call, done: Done) {
      done(null, new emptyPb.Empty());
    },
  });
}

/** Starts the Engine double on 127.0.0.1 on a free port (for programs run under setMocks). */
export async function startEngine(onLog?: (record: LogRecord) => void): Promise<EngineDouble> {
  const logs: LogRecord[] = [];
  const server = new grpc.Server();
  server.addService(engineGrpc.EngineService, engineService(logs, onLog));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000).unref();
      }),
  };
}
