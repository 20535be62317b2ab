/**
 * A simulated external volume provisioner, as clusters run one (the local-path provisioner, a CSI
 * driver's external-provisioner sidecar), so that PersistentVolumeClaims of a StorageClass bind
 * through the real PersistentVolume controller:
 * - StorageClass `sim-local` (provisioner `rollout-trace.dev/sim-local`, binding Immediate): the
 *   real PV controller marks the claim for it (`volume.beta.kubernetes.io/storage-provisioner`,
 *   Event `ExternalProvisioning`); this provisioner records `Provisioning`, creates a hostPath
 *   PersistentVolume `pvc-<claim uid>` pre-bound to the claim, records `ProvisioningSucceeded`,
 *   and the PV controller binds them. A released volume it provisioned (reclaim policy Delete) is
 *   deleted.
 * - StorageClass `sim-broken` (provisioner `rollout-trace.dev/sim-broken`): every attempt fails
 *   with a Warning `ProvisioningFailed` (`failed to provision volume with StorageClass
 *   "sim-broken": ...`), retried with back-off (1 s doubling to 5 min), as external-provisioner does.
 * One provisioner runs per cluster: the control plane's kubelet process starts it.
 */
import type { CoreV1Api, KubeConfig, StorageV1Api, V1PersistentVolume, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { EventRecorder, errorText } from './events.js';
import { ObjectWatch } from './object-watch.js';

/** The provisioner name of the StorageClass that binds. */
export const SIM_PROVISIONER = 'rollout-trace.dev/sim-local';
/** The provisioner name of the StorageClass whose claims never bind. */
export const BROKEN_PROVISIONER = 'rollout-trace.dev/sim-broken';
/** The message of every failed attempt of the broken provisioner. */
export const BROKEN_MESSAGE = 'rpc error: code = ResourceExhausted desc = no space left in storage pool "sim-pool" (0 of 100Gi free)';

const STORAGE_PROVISIONER_ANNOTATION = 'volume.beta.kubernetes.io/storage-provisioner';
const PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
const CLASSES = [
  { name: 'sim-local', provisioner: SIM_PROVISIONER },
  { name: 'sim-broken', provisioner: BROKEN_PROVISIONER },
];

/** Watches claims and volumes until `stop()`. */
export class SimProvisioner {
  private readonly recorder: EventRecorder;
  private readonly claims: ObjectWatch<V1PersistentVolumeClaim>;
  private readonly volumes: ObjectWatch<V1PersistentVolume>;
  private readonly known = new Map<string, V1PersistentVolumeClaim>();
  private readonly retries = new Map<string, { delayMs: number; timer?: NodeJS.Timeout }>();
  private readonly pvs = new Set<string>();
  private stopped = false;

  constructor(
    kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly storage: StorageV1Api,
    private readonly log: (line: string) => void,
  ) {
    this.recorder = new EventRecorder(core, 'sim-provisioner', log, SIM_PROVISIONER);
    this.claims = new ObjectWatch<V1PersistentVolumeClaim>(
      kc,
      { path: '/api/v1/persistentvolumeclaims', what: 'claim watch', list: () => core.listPersistentVolumeClaimForAllNamespaces() },
      {
        upsert: (pvc) => this.onClaim(pvc),
        remove: (uid) => this.known.delete(uid),
        known: () => [...this.known.keys()],
      },
      log,
    );
    this.volumes = new ObjectWatch<V1PersistentVolume>(
      kc,
      { path: '/api/v1/persistentvolumes', what: 'volume watch', list: () => core.listPersistentVolume() },
      { upsert: (pv) => this.onVolume(pv), remove: (uid) => this.pvs.delete(uid), known: () => [...this.pvs] },
      log,
    );
  }

  /** Creates the StorageClasses (kept when they exist) and starts watching. */
  async start(): Promise<void> {
    for (const c of CLASSES) {
      await this.storage
        .createStorageClass({
          body: { metadata: { name: c.name }, provisioner: c.provisioner, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' },
        })
        .catch((err: { code?: number }) => {
          if (err.code !== 409) throw err;
        });
    }
    await this.claims.start();
    await this.volumes.start();
  }

  /** Stops the watches and retries. */
  stop(): void {
    this.stopped = true;
    this.claims.stop();
    this.volumes.stop();
    for (const r of this.retries.values()) if (r.timer) clearTimeout(r.timer);
  }

  private onClaim(pvc: V1PersistentVolumeClaim): void {
    const uid = pvc.metadata?.uid ?? '';
    this.known.set(uid, pvc);
    const mine = pvc.metadata?.annotations?.[STORAGE_PROVISIONER_ANNOTATION];
    if ((mine !== SIM_PROVISIONER && mine !== BROKEN_PROVISIONER) || pvc.spec?.volumeName || pvc.status?.phase !== 'Pending') return;
    if (this.retries.has(uid)) return;
    this.retries.set(uid, { delayMs: 1000 });
    void this.provision(pvc);
  }

  private async provision(pvc: V1PersistentVolumeClaim): Promise<void> {
    if (this.stopped) return;
    const m = pvc.metadata!;
    const uid = m.uid ?? '';
    const ref = {
      kind: 'PersistentVolumeClaim',
      namespace: m.namespace,
      name: m.name!,
      uid,
      apiVersion: 'v1',
      resourceVersion: m.resourceVersion,
    };
    const current = this.known.get(uid);
    if (!current || current.spec?.volumeName) return;
    this.recorder.event(ref, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${m.namespace}/${m.name}"`);
    try {
      if (m.annotations?.[STORAGE_PROVISIONER_ANNOTATION] === BROKEN_PROVISIONER) throw new Error(BROKEN_MESSAGE);
      const name = `pvc-${uid}`;
      await this.core.createPersistentVolume({
        body: {
          metadata: { name, annotations: { [PROVISIONED_BY]: SIM_PROVISIONER } },
          spec: {
            capacity: { storage: pvc.spec?.resources?.requests?.storage ?? '1Gi' },
            accessModes: pvc.spec?.accessModes ?? ['ReadWriteOnce'],
            persistentVolumeReclaimPolicy: 'Delete',
            storageClassName: pvc.spec?.storageClassName ?? '',
            hostPath: { path: `/var/lib/sim-volumes/${name}`, type: 'DirectoryOrCreate' },
            claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: m.namespace, name: m.name, uid },
          },
        },
      });
      this.recorder.event(ref, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
      this.retries.delete(uid);
    } catch (err) {
      const message = `failed to provision volume with StorageClass "${pvc.spec?.storageClassName}": ${errorText(err)}`;
      this.recorder.event(ref, 'Warning', 'ProvisioningFailed', message);
      const retry = this.retries.get(uid) ?? { delayMs: 1000 };
      retry.timer = setTimeout(() => void this.provision(pvc), retry.delayMs);
      retry.delayMs = Math.min(retry.delayMs * 2, 300_000);
      this.retries.set(uid, retry);
    }
  }

  private onVolume(pv: V1PersistentVolume): void {
    const uid = pv.metadata?.uid ?? '';
    this.pvs.add(uid);
    if (pv.metadata?.annotations?.[PROVISIONED_BY] !== SIM_PROVISIONER || pv.status?.phase !== 'Released') return;
    if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    void this.core
      .deletePersistentVolume({ name: pv.metadata!.name! })
      .catch((err) => this.log(`delete ${pv.metadata?.name}: ${errorText(err)}`));
  }
}
