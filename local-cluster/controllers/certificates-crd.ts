/**
 * The custom resources of the simulated certificate controller, modelled on cert-manager's
 * `cert-manager.io/v1` Certificate and CertificateRequest, in a group of the simulation's own
 * (`certs.sim.rollout-trace.dev/v1`, so that nothing mistakes them for cert-manager): a
 * Certificate owns the CertificateRequest of each revision. Installed when the controllers start.
 */
import type { ApiextensionsV1Api, V1CustomResourceDefinition, V1JSONSchemaProps } from '@kubernetes/client-node';

/** The API group of the simulated certificates. */
export const CERT_GROUP = 'certs.sim.rollout-trace.dev';
/** Its one version. */
export const CERT_VERSION = 'v1';
/** `apiVersion` of its objects. */
export const CERT_API_VERSION = `${CERT_GROUP}/${CERT_VERSION}`;

const issuerRef: V1JSONSchemaProps = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, kind: { type: 'string' }, group: { type: 'string' } },
};
const names = { type: 'array', items: { type: 'string' } } as const;
const status: V1JSONSchemaProps = { type: 'object', x_kubernetes_preserve_unknown_fields: true };
const readyColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' };
const age = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

function crd(kind: string, plural: string, shortName: string, spec: V1JSONSchemaProps, columns: object[]): V1CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${CERT_GROUP}` },
    spec: {
      group: CERT_GROUP,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List`, shortNames: [shortName] },
      versions: [
        {
          name: CERT_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: columns as never,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec, status } } },
        },
      ],
    },
  };
}

/** The two definitions: Certificate (`cert`) and CertificateRequest (`cr`). */
export const CERT_CRDS: V1CustomResourceDefinition[] = [
  crd(
    'Certificate',
    'certificates',
    'cert',
    {
      type: 'object',
      required: ['secretName', 'issuerRef'],
      properties: { secretName: { type: 'string' }, commonName: { type: 'string' }, dnsNames: names, issuerRef },
    },
    [readyColumn, { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' }, age],
  ),
  crd(
    'CertificateRequest',
    'certificaterequests',
    'cr',
    { type: 'object', required: ['issuerRef'], properties: { commonName: { type: 'string' }, dnsNames: names, issuerRef } },
    [
      { name: 'Approved', type: 'string', jsonPath: '.status.conditions[?(@.type=="Approved")].status' },
      readyColumn,
      { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name' },
      age,
    ],
  ),
];

/** Creates the definitions (kept when they exist) and waits (up to 30 s) until both are Established. */
export async function installCertificateCrds(api: ApiextensionsV1Api): Promise<void> {
  for (const body of CERT_CRDS) {
    await api.createCustomResourceDefinition({ body }).catch((err) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
  }
  const deadline = Date.now() + 30_000;
  for (const { metadata } of CERT_CRDS) {
    for (;;) {
      const got = await api.readCustomResourceDefinition({ name: metadata!.name! });
      if (got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CustomResourceDefinition ${metadata!.name} not Established after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A Certificate or CertificateRequest as the controllers read it. */
export interface CertObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string | Date;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[];
  };
  spec?: { secretName?: string; commonName?: string; dnsNames?: string[]; issuerRef?: { name: string; kind?: string; group?: string } };
  status?: {
    conditions?: import('./conditions.js').Condition[];
    revision?: number;
    notBefore?: string;
    notAfter?: string;
    renewalTime?: string;
    lastFailureTime?: string;
    failureTime?: string;
  };
}
