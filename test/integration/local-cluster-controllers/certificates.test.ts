/**
 * The simulated certificate controller (local-cluster/controllers/certificates.ts, cert-manager-like)
 * against the real apiserver and garbage collector: a Certificate becomes Ready only after the
 * CertificateRequest it owns does, with cert-manager's conditions, reasons, Events and
 * observedGeneration (again for a changed spec); a failing issuer's request ends Ready False
 * `Failed` and the Certificate's Issuing False `Failed`; an unknown issuer leaves the request
 * Pending; deleting the Certificate deletes its request (ownerReferences, the real GC).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import {
  CERT_API_VERSION,
  CERT_GROUP,
  CERT_VERSION,
  type Condition,
  FAILING_ISSUER,
  ISSUE_SECONDS_ANNOTATION,
  ISSUED_MESSAGE,
  ISSUING_ISSUER,
} from '../../../local-cluster/controllers/index.js';
import { clients, eventsAbout, privateControllers, waitEvent, waitUntil } from './support.js';

interface Obj {
  metadata: { name: string; uid: string; generation: number; ownerReferences?: Record<string, unknown>[] };
  status?: { conditions?: Condition[]; revision?: number };
}

const api = () => clients().kc.makeApiClient(CustomObjectsApi);
const read = (ns: string, plural: string, name: string): Promise<Obj | undefined> =>
  api()
    .getNamespacedCustomObject({ group: CERT_GROUP, version: CERT_VERSION, namespace: ns, plural, name })
    .then(
      (o) => o as Obj,
      () => undefined,
    );
const condition = (o: Obj | undefined, type: string) => o?.status?.conditions?.find((c) => c.type === type);

async function createCertificate(ns: string, name: string, issuer: string, seconds: number): Promise<void> {
  await api().createNamespacedCustomObject({
    group: CERT_GROUP,
    version: CERT_VERSION,
    namespace: ns,
    plural: 'certificates',
    body: {
      apiVersion: CERT_API_VERSION,
      kind: 'Certificate',
      metadata: { name, annotations: { [ISSUE_SECONDS_ANNOTATION]: String(seconds) } },
      spec: { secretName: `${name}-tls`, dnsNames: [`${name}.example.test`], issuerRef: { name: issuer } },
    },
  });
}

/** Polls until the Certificate is Ready for its generation; asserts at each look that its request was Ready first. */
async function waitReadyAfterRequest(ns: string, name: string, revision: number): Promise<{ seen: Set<string>; cert: Obj }> {
  const seen = new Set<string>();
  const cert = await waitUntil(
    async () => {
      const c = await read(ns, 'certificates', name);
      const ready = condition(c, 'Ready');
      if (ready) seen.add(`${ready.status}/${ready.reason}/${ready.observedGeneration}`);
      if (ready?.status !== 'True' || ready.observedGeneration !== c?.metadata.generation) return undefined;
      const req = await read(ns, 'certificaterequests', `${name}-${revision}`);
      assert.equal(condition(req, 'Ready')?.status, 'True', 'the Certificate is Ready only after its request');
      return c;
    },
    { what: `Certificate ${name} Ready for its generation`, timeoutMs: 60_000, intervalMs: 100 },
  );
  return { seen, cert: cert! };
}

describe('the simulated certificate controller', { concurrency: true }, () => {
  it('Ready after the CertificateRequest it owns, and again for a changed spec', async (t) => {
    const { ns } = await privateControllers(t, 'cert-ready', { loadBalancer: false, ingress: false });
    await createCertificate(ns, 'web', ISSUING_ISSUER, 3);
    const first = await waitReadyAfterRequest(ns, 'web', 1);
    assert.ok(first.seen.has('False/DoesNotExist/1'), `Ready went: ${[...first.seen].join(', ')}`);
    assert.equal(first.cert.status?.revision, 1);
    assert.equal(condition(first.cert, 'Ready')?.message, 'Certificate is up to date and has not expired');
    assert.equal(condition(first.cert, 'Issuing'), undefined);
    const req = (await read(ns, 'certificaterequests', 'web-1'))!;
    assert.deepEqual(req.metadata.ownerReferences, [
      {
        apiVersion: CERT_API_VERSION,
        kind: 'Certificate',
        name: 'web',
        uid: first.cert.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(condition(req, 'Approved')?.reason, 'cert-manager.io');
    assert.equal(condition(req, 'Ready')?.reason, 'Issued');
    assert.equal((await waitEvent(ns, 'CertificateRequest', 'web-1', 'CertificateIssued')).message, ISSUED_MESSAGE);
    await waitEvent(ns, 'Certificate', 'web', 'Requested');
    const issuing = await waitUntil(
      async () => (await eventsAbout(ns, 'Certificate', 'web')).find((e) => e.message === 'The certificate has been successfully issued'),
      { what: 'the Issuing Event of success' },
    );
    assert.equal(issuing.reason, 'Issuing');

    await api().patchNamespacedCustomObject(
      {
        group: CERT_GROUP,
        version: CERT_VERSION,
        namespace: ns,
        plural: 'certificates',
        name: 'web',
        body: { spec: { dnsNames: ['www.example.test'] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const second = await waitReadyAfterRequest(ns, 'web', 2);
    assert.ok(second.seen.has('False/RequestChanged/2'), `Ready went: ${[...second.seen].join(', ')}`);
    assert.equal(second.cert.status?.revision, 2);
    assert.equal(condition(second.cert, 'Ready')?.observedGeneration, 2);
  });

  it('a failing issuer: the request Ready False Failed, the Certificate Issuing False Failed and a Warning', async (t) => {
    const { ns } = await privateControllers(t, 'cert-fail', { loadBalancer: false, ingress: false });
    await createCertificate(ns, 'api', FAILING_ISSUER, 0);
    const failed = await waitUntil(
      async () => {
        const c = await read(ns, 'certificates', 'api');
        return condition(c, 'Issuing')?.reason === 'Failed' && c;
      },
      { what: 'Certificate api Issuing False Failed' },
    );
    const reqReady = condition(await read(ns, 'certificaterequests', 'api-1'), 'Ready');
    assert.equal(reqReady?.status, 'False');
    assert.equal(reqReady?.reason, 'Failed');
    assert.match(
      reqReady?.message ?? '',
      /^Failed to wait for order resource ".*\/api-1-\d+" to become ready: .*rateLimited.*api\.example\.test/,
    );
    const issuing = condition(failed, 'Issuing')!;
    assert.equal(issuing.status, 'False');
    assert.equal(issuing.message, `The certificate request has failed to complete and will be retried: ${reqReady?.message}`);
    assert.equal(issuing.observedGeneration, 1);
    const ready = condition(failed, 'Ready')!;
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ['False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'],
    );
    const warning = await waitEvent(ns, 'Certificate', 'api', 'Failed');
    assert.equal(warning.type, 'Warning');
    assert.equal(warning.message, issuing.message);
  });

  it('an unknown issuer leaves the request Pending; deleting the Certificate deletes its request (the real GC)', async (t) => {
    const { ns } = await privateControllers(t, 'cert-pending', { loadBalancer: false, ingress: false });
    await createCertificate(ns, 'db', 'no-such-issuer', 0);
    const notFound = await waitEvent(ns, 'CertificateRequest', 'db-1', 'IssuerNotFound');
    assert.equal(notFound.message, `Referenced "Issuer" not found: issuer.${CERT_GROUP} "no-such-issuer" not found`);
    const ready = condition(await read(ns, 'certificaterequests', 'db-1'), 'Ready');
    assert.deepEqual([ready?.status, ready?.reason], ['False', 'Pending']);
    assert.equal(condition(await read(ns, 'certificates', 'db'), 'Ready')?.status, 'False');

    await api().deleteNamespacedCustomObject({
      group: CERT_GROUP,
      version: CERT_VERSION,
      namespace: ns,
      plural: 'certificates',
      name: 'db',
    });
    // The garbage collector learns new resources from discovery every 30 s.
    await waitUntil(async () => !(await read(ns, 'certificaterequests', 'db-1')), {
      what: 'the garbage collector to delete CertificateRequest db-1',
      timeoutMs: 120_000,
    });
  });
});
