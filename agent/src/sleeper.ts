/** A sleep that `wake()` ends early: a loop that waits for work, or for the agent to stop. */
export class Sleeper {
  private wakeUp: (() => void) | undefined;
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
  wake(): void {
    this.wakeUp?.();
  }
}
