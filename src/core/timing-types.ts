/** Where a rollout's time went: the types of a verdict's `timings` (computed in timings.ts). */

/** A phase of a pod's start, in order (not a rollout's `RolloutPhase`). */
export type StartPhase = 'scheduling' | 'image-pull' | 'container-start' | 'readiness';

/**
 * One pod of the current template: seconds per phase, each present once the pod got through it.
 * `scheduling`: created to `PodScheduled`; `image-pull`: its kubelet's `Pulled` Events (0 when
 * every image was present); `container-start`: scheduled to the last container started, minus the
 * pulls; `readiness`: the last container started to `Ready`.
 */
export interface PodTiming {
  pod: string;
  node?: string;
  scheduling?: number;
  'image-pull'?: number;
  'container-start'?: number;
  readiness?: number;
}

/** The current template's pods' timings, and the phase that took most of their time. */
export interface RolloutTimings {
  pods: PodTiming[];
  /** Seconds per phase, summed over the pods. */
  phases: Record<StartPhase, number>;
  /** The phase that took most of the pods' time (absent when they took none). */
  dominant?: {
    phase: StartPhase;
    /** Its share of the pods' time, in percent. */
    share: number;
    /** Pods that spent time in it (only those on `node`, when it is given), and their mean seconds there. */
    pods: number;
    meanSeconds: number;
    /** The node that holds more than half of the phase's time, when one does. */
    node?: string;
  };
}
