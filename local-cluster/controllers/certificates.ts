/**
 * The simulated certificate controller, modelled on cert-manager's certificates controllers
 * (trigger, request-manager, readiness, issuing) for `certs.sim.rollout-trace.dev/v1`
 * Certificates. For each generation of a Certificate not yet issued it sets `Issuing` True and
 * `Ready` False (reason `DoesNotExist`, `Issuing certificate as Secret does not exist`, for a
 * first issue; `RequestChanged`, `Fields on existing CertificateRequest resource not up to date:
 * [spec.dnsNames]`, for a changed spec), records `Issuing` and creates the owned CertificateRequest
 * `<name>-<revision>` (ownerReferences controller, blockOwnerDeletion), Event `Requested`. Once
 * that request is Ready (certificate-requests.ts), the Certificate gets `Ready` True (`Ready`,
 * `Certificate is up to date and has not expired`), its revision and validity times, and the Event
 * `Issuing` `The certificate has been successfully issued`; a failed request sets `Issuing` False
 * `Failed` (`The certificate request has failed to complete and will be retried: <its message>`)
 * and a Warning `Failed`, and leaves `Ready` False. Conditions carry `observedGeneration`.
 * No Secret is written: the simulation issues no key material.
 */
import {
  type ApiextensionsV1Api,
  type CoreV1Api,
  type CustomObjectsApi,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { EventRecorder } from '../kubelet/events.js';
import { reconcileRequest, refOf } from './certificate-requests.js';
import { CERT_API_VERSION, CERT_GROUP, CERT_VERSION, type CertObject, installCertificateCrds } from './certificates-crd.js';
import { type Condition, findCondition, removeCondition, setCondition } from './conditions.js';
import { Informer, keyOf, namespaceOfKey, WorkQueue } from './informer.js';
import type { NamespaceScope } from './scope.js';

/** Request annotations (cert-manager's `cert-manager.io/certificate-revision` and kin). */
const REVISION = `${CERT_GROUP}/certificate-revision`;
const GENERATION = `${CERT_GROUP}/certificate-generation`;
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const DAY_MS = 86_400_000;

/** Watches Certificates and CertificateRequests until `stop()`. */
export class CertificateController {
  private readonly certs: Informer<CertObject>;
  private readonly requests: Informer<CertObject>;
  private readonly certQueue: WorkQueue;
  private readonly requestQueue: WorkQueue;
  private readonly recorder: EventRecorder;

  constructor(
    kc: KubeConfig,
    core: CoreV1Api,
    private readonly custom: CustomObjectsApi,
    private readonly extensions: ApiextensionsV1Api,
    private readonly scope: NamespaceScope,
    log: (line: string) => void,
  ) {
    this.recorder = new EventRecorder(core, '', log, 'cert-manager');
    this.certQueue = new WorkQueue('certificates', (key) => this.reconcileCertificate(key), log);
    this.requestQueue = new WorkQueue('certificaterequests', (key) => this.reconcileRequestKey(key), log);
    const informer = (plural: string, changed: (key: string, obj: CertObject | undefined) => void) =>
      new Informer<CertObject>(
        kc,
        {
          path: `/apis/${CERT_GROUP}/${CERT_VERSION}/${plural}`,
          what: `${plural} watch`,
          list: () => custom.listCustomObjectForAllNamespaces({ group: CERT_GROUP, version: CERT_VERSION, resourcePlural: plural }),
        },
        changed,
        log,
      );
    this.certs = informer('certificates', (key) => this.certQueue.add(key));
    this.requests = informer('certificaterequests', (key, req) => {
      this.requestQueue.add(key);
      const owner = req?.metadata?.ownerReferences?.find((o) => o.controller && o.kind === 'Certificate');
      if (owner) this.certQueue.add(`${namespaceOfKey(key)}/${owner.name}`);
    });
  }

  /** Installs the CustomResourceDefinitions, then lists and watches. */
  async start(): Promise<void> {
    await installCertificateCrds(this.extensions);
    await this.requests.start();
    await this.certs.start();
  }

  /** Stops the watches and queues. */
  stop(): void {
    this.certs.stop();
    this.requests.stop();
    this.certQueue.stop();
    this.requestQueue.stop();
  }

  /** Looks again at the objects of `namespace` (it entered the controller's scope). */
  resync(namespace: string): void {
    for (const r of this.requests.list()) if (r.metadata?.namespace === namespace) this.requestQueue.add(keyOf(r));
    for (const c of this.certs.list()) if (c.metadata?.namespace === namespace) this.certQueue.add(keyOf(c));
  }

  private async reconcileRequestKey(key: string): Promise<void> {
    const req = this.requests.get(key);
    if (!req || !this.scope.has(namespaceOfKey(key))) return;
    await reconcileRequest(
      {
        recorder: this.recorder,
        writeStatus: (obj, status) => this.writeStatus(this.requests, 'certificaterequests', obj, status),
        requeue: (obj, ms) => this.requestQueue.add(keyOf(obj), ms),
        now: () => new Date(),
      },
      req,
    );
  }

  private async reconcileCertificate(key: string): Promise<void> {
    const cert = this.certs.get(key);
    if (!cert || !this.scope.has(namespaceOfKey(key))) return;
    const generation = cert.metadata?.generation ?? 1;
    const status = cert.status ?? {};
    const ready = findCondition(status.conditions, 'Ready');
    if (ready?.status === 'True' && ready.observedGeneration === generation) return;
    const revision = (status.revision ?? 0) + 1;
    const req = this.requests.get(`${namespaceOfKey(key)}/${cert.metadata?.name}-${revision}`);
    if (!req || req.metadata?.annotations?.[GENERATION] !== String(generation)) return this.request(cert, revision, req);
    const reqReady = findCondition(req.status?.conditions, 'Ready');
    if (reqReady?.status === 'True') return this.issued(cert, revision);
    if (reqReady?.reason !== 'Failed') return;
    const message = `The certificate request has failed to complete and will be retried: ${reqReady.message}`;
    const issuing = findCondition(status.conditions, 'Issuing');
    if (issuing?.reason === 'Failed' && issuing.observedGeneration === generation) return;
    const conditions = setCondition(status.conditions, {
      type: 'Issuing',
      status: 'False',
      reason: 'Failed',
      message,
      observedGeneration: generation,
    });
    await this.writeStatus(this.certs, 'certificates', cert, { conditions, lastFailureTime: new Date().toISOString() });
    this.recorder.event(refOf(cert), 'Warning', 'Failed', message);
  }

  /** Starts issuing `revision` for the Certificate's generation: conditions, Events, the owned request. */
  private async request(cert: CertObject, revision: number, stale: CertObject | undefined): Promise<void> {
    const m = cert.metadata!;
    const generation = m.generation ?? 1;
    const changed = stale
      ? (['commonName', 'dnsNames', 'issuerRef'] as const).filter((f) => JSON.stringify(stale.spec?.[f]) !== JSON.stringify(cert.spec?.[f]))
      : [];
    const why: Omit<Condition, 'type' | 'status'> =
      revision === 1 && changed.length === 0
        ? { reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', observedGeneration: generation }
        : {
            reason: 'RequestChanged',
            message: `Fields on existing CertificateRequest resource not up to date: [${changed.map((f) => `spec.${f}`).join(' ')}]`,
            observedGeneration: generation,
          };
    let conditions = setCondition(cert.status?.conditions, { type: 'Ready', status: 'False', ...why });
    conditions = setCondition(conditions, { type: 'Issuing', status: 'True', ...why });
    await this.writeStatus(this.certs, 'certificates', cert, { conditions });
    this.recorder.event(refOf(cert), 'Normal', 'Issuing', why.message);
    const name = `${m.name}-${revision}`;
    if (stale)
      await this.custom.deleteNamespacedCustomObject({
        group: CERT_GROUP,
        version: CERT_VERSION,
        namespace: m.namespace!,
        plural: 'certificaterequests',
        name,
      });
    const annotations: Record<string, string> = { [REVISION]: String(revision), [GENERATION]: String(generation) };
    for (const [k, v] of Object.entries(m.annotations ?? {})) if (k.startsWith('sim.rollout-trace.dev/')) annotations[k] = v;
    const body: CertObject = {
      apiVersion: CERT_API_VERSION,
      kind: 'CertificateRequest',
      metadata: {
        name,
        annotations,
        ownerReferences: [
          {
            apiVersion: CERT_API_VERSION,
            kind: 'Certificate',
            name: m.name!,
            uid: m.uid!,
            controller: true,
            blockOwnerDeletion: true,
          } as never,
        ],
      },
      spec: { commonName: cert.spec?.commonName, dnsNames: cert.spec?.dnsNames, issuerRef: cert.spec?.issuerRef },
    };
    const created = await this.custom.createNamespacedCustomObject({
      group: CERT_GROUP,
      version: CERT_VERSION,
      namespace: m.namespace!,
      plural: 'certificaterequests',
      body,
    });
    this.requests.put(created as CertObject);
    this.recorder.event(refOf(cert), 'Normal', 'Requested', `Created new CertificateRequest resource "${name}"`);
  }

  private async issued(cert: CertObject, revision: number): Promise<void> {
    const now = Date.now();
    const observedGeneration = cert.metadata?.generation ?? 1;
    let conditions = removeCondition(cert.status?.conditions, 'Issuing');
    conditions = setCondition(conditions, {
      type: 'Ready',
      status: 'True',
      reason: 'Ready',
      message: 'Certificate is up to date and has not expired',
      observedGeneration,
    });
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    await this.writeStatus(this.certs, 'certificates', cert, {
      conditions,
      revision,
      notBefore: iso(now),
      notAfter: iso(now + 90 * DAY_MS),
      renewalTime: iso(now + 60 * DAY_MS),
    });
    this.recorder.event(refOf(cert), 'Normal', 'Issuing', 'The certificate has been successfully issued');
  }

  private async writeStatus(
    cache: Informer<CertObject>,
    plural: string,
    obj: CertObject,
    status: NonNullable<CertObject['status']>,
  ): Promise<void> {
    const m = obj.metadata!;
    const written = await this.custom.patchNamespacedCustomObjectStatus(
      { group: CERT_GROUP, version: CERT_VERSION, namespace: m.namespace!, plural, name: m.name!, body: { status } },
      merge,
    );
    cache.put(written as CertObject);
  }
}
