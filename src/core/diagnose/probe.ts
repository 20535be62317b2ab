/** Probe descriptions and the probe-derived readiness window (kubedog's idea). */
import type { V1Probe } from '@kubernetes/client-node';

/** `GET http://:8080/healthz`, `exec [cat /tmp/ready]`, `tcp :5432`, `grpc :9090`. */
export function probeHandler(probe: V1Probe | undefined): string {
  if (!probe) return 'unknown';
  if (probe.httpGet) {
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    return `GET ${scheme}://${probe.httpGet.host ?? ''}:${String(probe.httpGet.port)}${probe.httpGet.path ?? '/'}`;
  }
  if (probe.exec) return `exec [${(probe.exec.command ?? []).join(' ')}]`;
  if (probe.tcpSocket) return `tcp ${probe.tcpSocket.host ?? ''}:${String(probe.tcpSocket.port)}`;
  const grpc = (probe as { grpc?: { port?: number } }).grpc;
  if (grpc) return `grpc :${String(grpc.port)}`;
  return 'unknown';
}

/**
 * Seconds a readiness probe needs before it can have failed `failureThreshold` times in a row:
 * initialDelaySeconds + periodSeconds * failureThreshold (API defaults 0, 10, 3).
 */
export function probeBudgetSeconds(probe: V1Probe | undefined): number {
  if (!probe) return 0;
  return (probe.initialDelaySeconds ?? 0) + (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3);
}
