/**
 * A pod worker's sleeps (image pulls, grace periods, start-up delays): each ends after its time,
 * or early when the pod is deleted (`wakeInterruptible`) or its worker stops (`wakeAll`); a grace
 * period's sleep is uninterruptible and ends early only with the worker.
 */
export class Sleeps {
  private readonly interruptible = new Set<() => void>();
  private readonly uninterruptible = new Set<() => void>();

  /** Sleeps `ms`, ending early as the class says. */
  sleep(ms: number, uninterruptible = false): Promise<void> {
    // A timer is armed from the event loop's cached clock, so under load it can fire a few ms
    // before `ms` have passed on performance.now(): re-arm for the rest, as a real pull lasts.
    const deadline = performance.now() + ms;
    return new Promise((resolve) => {
      let t: NodeJS.Timeout;
      const done = () => {
        clearTimeout(t);
        this.interruptible.delete(done);
        this.uninterruptible.delete(done);
        resolve();
      };
      const arm = () => {
        const rest = deadline - performance.now();
        t = rest > 0 ? setTimeout(arm, Math.ceil(rest)) : setTimeout(done, 0);
      };
      t = setTimeout(arm, ms);
      (uninterruptible ? this.uninterruptible : this.interruptible).add(done);
    });
  }

  /** Ends every interruptible sleep now (the pod is being deleted or evicted). */
  wakeInterruptible(): void {
    for (const wake of [...this.interruptible]) wake();
  }

  /** Ends every sleep now (the worker stops). */
  wakeAll(): void {
    for (const wake of [...this.interruptible, ...this.uninterruptible]) wake();
  }
}
