/**
 * The issuing half of the simulated certificates, modelled on cert-manager's approver and its ACME
 * issuer's CertificateRequest controller: a request is approved (`Approved` True, reason and Event
 * `cert-manager.io`, `Certificate request has been approved by cert-manager.io`), waits on its order
 * (`Ready` False `Pending`, `Waiting on certificate issuance from order ns/name-N: "pending"`) for
 * the Certificate's `sim.rollout-trace.dev/issue-seconds` (default 1), then by its issuer:
 * - `sim-acme`: `Ready` True `Issued`, Event `CertificateIssued`, `Certificate fetched from issuer successfully`;
 * - `sim-acme-ratelimited`: `Ready` False `Failed` with Let's Encrypt's rate-limit error, `failureTime`,
 *   Warning Event `Failed`; a failed request is final (cert-manager retries the Certificate after an hour);
 * - any other name: `Ready` False `Pending`, `Referenced "Issuer" not found: ...`, Warning Event `IssuerNotFound`.
 */
import type { EventRecorder, EventRef } from '../kubelet/events.js';
import { CERT_API_VERSION, CERT_GROUP, type CertObject } from './certificates-crd.js';
import { type Condition, findCondition, setCondition } from './conditions.js';

/** The issuer that issues. */
export const ISSUING_ISSUER = 'sim-acme';
/** The issuer whose orders fail (Let's Encrypt's rate limit). */
export const FAILING_ISSUER = 'sim-acme-ratelimited';
/** The Certificate annotation giving how long its issuer takes, in seconds (default 1). */
export const ISSUE_SECONDS_ANNOTATION = 'sim.rollout-trace.dev/issue-seconds';

const APPROVED = 'Certificate request has been approved by cert-manager.io';
/** The message of an issued request's Ready condition and its Event. */
export const ISSUED_MESSAGE = 'Certificate fetched from issuer successfully';

/** The Ready message of a request of {@link FAILING_ISSUER}. */
export function rateLimitedMessage(order: string, dnsNames: string[]): string {
  return (
    `Failed to wait for order resource "${order}" to become ready: order is in "errored" state: Failed to create Order: ` +
    '429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates already issued for exact set of ' +
    `domains: ${dnsNames.join(',')}: see https://letsencrypt.org/docs/rate-limits/`
  );
}

/** What the request reconciler needs from its controller. */
export interface RequestContext {
  recorder: EventRecorder;
  /** Writes `status` (merged) and caches the answer. */
  writeStatus(obj: CertObject, status: NonNullable<CertObject['status']>): Promise<void>;
  /** Reconciles the request again after `ms`. */
  requeue(obj: CertObject, ms: number): void;
  now(): Date;
}

/** The Event reference of a custom object. */
export function refOf(obj: CertObject): EventRef {
  const m = obj.metadata ?? {};
  return { kind: obj.kind ?? '', apiVersion: CERT_API_VERSION, namespace: m.namespace, name: m.name ?? '', uid: m.uid };
}

/** Moves one CertificateRequest on: approval, the wait on its order, then its issuer's answer. */
export async function reconcileRequest(ctx: RequestContext, req: CertObject): Promise<void> {
  const before = req.status?.conditions;
  const ready = findCondition(before, 'Ready');
  if (ready?.status === 'True' || ready?.reason === 'Failed') return;
  const ref = refOf(req);
  let conditions = before;
  if (!findCondition(conditions, 'Approved')) {
    conditions = setCondition(conditions, { type: 'Approved', status: 'True', reason: 'cert-manager.io', message: APPROVED });
    ctx.recorder.event(ref, 'Normal', 'cert-manager.io', APPROVED);
  }
  const m = req.metadata ?? {};
  const issuer = req.spec?.issuerRef?.name ?? '';
  const extra: NonNullable<CertObject['status']> = {};
  let next: Omit<Condition, 'type'>;
  if (issuer !== ISSUING_ISSUER && issuer !== FAILING_ISSUER) {
    next = { status: 'False', reason: 'Pending', message: `Referenced "Issuer" not found: issuer.${CERT_GROUP} "${issuer}" not found` };
    if (ready?.message !== next.message) ctx.recorder.event(ref, 'Warning', 'IssuerNotFound', next.message);
  } else {
    const order = `${m.namespace}/${m.name}-${orderNumber(m.uid ?? '')}`;
    const seconds = Number(m.annotations?.[ISSUE_SECONDS_ANNOTATION] ?? 1);
    const due = new Date(m.creationTimestamp ?? 0).getTime() + (Number.isFinite(seconds) ? seconds : 1) * 1000;
    const wait = due - ctx.now().getTime();
    if (wait > 0) {
      next = { status: 'False', reason: 'Pending', message: `Waiting on certificate issuance from order ${order}: "pending"` };
      ctx.requeue(req, wait);
    } else if (issuer === ISSUING_ISSUER) {
      next = { status: 'True', reason: 'Issued', message: ISSUED_MESSAGE };
      ctx.recorder.event(ref, 'Normal', 'CertificateIssued', ISSUED_MESSAGE);
    } else {
      next = { status: 'False', reason: 'Failed', message: rateLimitedMessage(order, req.spec?.dnsNames ?? []) };
      extra.failureTime = ctx.now().toISOString();
      ctx.recorder.event(ref, 'Warning', 'Failed', next.message);
    }
  }
  conditions = setCondition(conditions, { type: 'Ready', ...next }, ctx.now());
  if (JSON.stringify(conditions) !== JSON.stringify(before)) await ctx.writeStatus(req, { conditions, ...extra });
}

/** The order's number in its name, as cert-manager's hash of the request (deterministic per request). */
function orderNumber(uid: string): number {
  let h = 2166136261;
  for (const ch of uid) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}
