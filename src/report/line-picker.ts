/**
 * Picks the lines worth appending to an append-only output (CI job output, Pulumi status lines)
 * from a stream of rollout events: one line per real state change. Shared by the plain CI sink and the Pulumi status lines, so both say the same
 * thing the same way.
 */
import type { RolloutEvent } from '../core/index.js';
import { describeEvent, type EventLine } from './describe-event.js';

/** Pulumi's progress line (src/core/pulumi-await.ts `pulumiProgressMessage`). */
const PULUMI_PROGRESS = /^Waiting for app ReplicaSet to be available \((\d+)\/(\d+) Pods available\)$/;

/** Stateful line selector; `key` separates Deployments (e.g. `namespace/name`). */
export class LinePicker {
  /** Last text printed per `deployment\0subject`. */
  private readonly lastText = new Map<string, string>();
  /** Per pod subject: the `waiting` lines printed since it last left the waiting state. */
  private readonly waitingTexts = new Map<string, Set<string>>();
  /** `ready/desired` of each Deployment's new ReplicaSet as last printed. */
  private readonly newReplicaSetCounts = new Map<string, string>();
  /** Per deployment, per gist: the pod whose problem or warning first said it (this revision). */
  private readonly firstPod = new Map<string, Map<string, string>>();

  /** The line to print for `e`, or undefined when it would only repeat what the output already says. */
  next(key: string, e: RolloutEvent): EventLine | undefined {
    if (this.restatesKnownState(key, e)) return undefined;
    const line = describeEvent(e);
    if (!line) return undefined;
    // A container log line says what it says: a repeated line is the application's, not a repeated state.
    if (e.type === 'log') return line;
    const memo = `${key}\u0000${line.subject}`;
    const shown = this.sameAsEarlierPod(key, e, line);
    if (this.lastText.get(memo) === shown.text) return undefined;
    if (this.isWaitingCycle(memo, e, shown.text)) return undefined;
    this.lastText.set(memo, shown.text);
    return shown;
  }

  /**
   * Every pod of a ReplicaSet usually fails the same way (a missing volume, a bad image): the
   * first pod's problem or warning is printed whole, the others' as `same as Pod/<first>`, so
   * a 10-replica failure stays readable. A new revision starts over.
   */
  private sameAsEarlierPod(key: string, e: RolloutEvent, line: EventLine): EventLine {
    if (e.type === 'revision') {
      this.firstPod.delete(key);
      return line;
    }
    let pod: string;
    let gist: string;
    let text: (first: string) => string;
    if (e.type === 'problem' && e.problem.object.kind === 'Pod') {
      const p = e.problem;
      pod = p.object.name;
      const subject = `Pod/${pod}${p.container !== undefined ? ` container ${p.container}` : ''}`;
      if (!line.text.startsWith(`problem: ${subject}`)) return line;
      gist = `problem\u0000${p.class}\u0000${p.container ?? ''}\u0000${line.text.slice(`problem: ${subject}`.length)}`;
      text = (first) => `problem: ${subject}: same as Pod/${first}`;
    } else if (e.type === 'k8s-event' && e.event.type === 'Warning' && e.event.object.startsWith('Pod/')) {
      pod = e.event.object.slice('Pod/'.length);
      gist = `event\u0000${e.event.reason}\u0000${e.event.message.split(pod).join('\u0001')}`;
      text = (first) => `event [Pod/${pod}] ${e.event.reason}: same as [Pod/${first}]`;
    } else {
      return line;
    }
    const firsts = this.firstPod.get(key) ?? new Map<string, string>();
    this.firstPod.set(key, firsts);
    const first = firsts.get(gist);
    if (first === undefined) firsts.set(gist, pod);
    return first === undefined || first === pod ? line : { ...line, text: text(first) };
  }

  /**
   * Lines that would only repeat what the output already says:
   * - Pulumi's `Waiting for app ReplicaSet to be available (r/s Pods available)`: its "available"
   *   counts the new ReplicaSet's *ready* pods, so it restates the `r/s ready` ReplicaSet line
   *   printed just before it. It is still printed when its numbers differ from that line, and it
   *   stays in `still waiting:` lines and in the TTY tree.
   * - The `complete` phase: the success verdict right after it says the same, with the duration.
   * - An old ReplicaSet already scaled to 0 when the trace starts: history (up to
   *   `revisionHistoryLimit` of them), not a change. Printed if it ever scales up (rollback).
   */
  private restatesKnownState(key: string, e: RolloutEvent): boolean {
    if (e.type === 'replicaset' && e.role === 'new') this.newReplicaSetCounts.set(key, `${e.ready}/${e.desired}`);
    if (e.type === 'replicaset') return e.created && e.role === 'old' && e.desired === 0 && e.ready === 0 && e.available === 0;
    if (e.type === 'phase') return e.phase === 'complete';
    if (e.type !== 'progress') return false;
    const pulumi = PULUMI_PROGRESS.exec(e.message);
    return pulumi !== null && this.newReplicaSetCounts.get(key) === `${pulumi[1]}/${pulumi[2]}`;
  }

  /**
   * A pod stuck waiting cycles through the same reasons (`ErrImagePull` <-> `ImagePullBackOff`
   * at every back-off): print each waiting reason once per stretch of waiting, not at every flip.
   * The verdict counts the retries; any other state (running, ready...) starts a new stretch.
   */
  private isWaitingCycle(memo: string, e: RolloutEvent, text: string): boolean {
    if (e.type !== 'pod') return false;
    if (e.state !== 'waiting') {
      this.waitingTexts.delete(memo);
      return false;
    }
    const seen = this.waitingTexts.get(memo) ?? new Set<string>();
    this.waitingTexts.set(memo, seen);
    if (seen.has(text)) return true;
    seen.add(text);
    return false;
  }
}
