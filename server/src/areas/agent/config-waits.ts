import { AGENT_CONFIGURATION_WAIT_SECONDS } from '@cfs/contracts/agent';
import type { DatabaseListener } from '../../db/listener.js';

/** The channel on which the database announces a change to what a device's agent runs (migration 0040). */
export const AGENT_CONFIG_CHANNEL = 'agent_config';

/** The longest an agent's configuration call is held for a change (`Prefer: wait=`), seconds. */
export const AGENT_WAIT_MAX_SECONDS = AGENT_CONFIGURATION_WAIT_SECONDS;

/** One held configuration call: `changed` resolves at the first announcement for its device after `begin`. */
export interface ConfigWait {
  changed: Promise<void>;
  end(): void;
}

/**
 * The agents' configuration calls held on this instance, woken by the database's announcements
 * (NOTIFY agent_config, from any instance's writes). A wait is begun before the configuration is
 * read, so a change committed in between wakes it at once instead of being missed; without the
 * listener's connection nothing is held (the agent's 30 s poll carries on).
 */
export class AgentConfigWaits {
  private readonly waiting = new Map<string, Set<() => void>>();
  private listening = false;

  /** `onEveryDevice` runs at a change for every device, before the held calls are answered. */
  constructor(private readonly onEveryDevice: () => void = () => undefined) {}

  attach(listener: DatabaseListener): void {
    // `*` is a change for every device (the agent version they are to run, migration 0050).
    listener.on(AGENT_CONFIG_CHANNEL, (deviceId) => {
      if (deviceId !== '*') return this.wake(deviceId);
      this.onEveryDevice();
      this.wakeAll();
    });
    listener.onConnection((connected) => {
      this.listening = connected;
      // What was held while the connection went may have missed its change: answer it now.
      if (!connected) this.wakeAll();
    });
  }

  /** Whether a call can be held: only while announcements are heard. */
  get available(): boolean {
    return this.listening;
  }

  begin(deviceId: string): ConfigWait {
    let wake: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (wake = resolve));
    const waiters = this.waiting.get(deviceId) ?? new Set<() => void>();
    waiters.add(wake);
    this.waiting.set(deviceId, waiters);
    const end = () => {
      waiters.delete(wake);
      if (waiters.size === 0 && this.waiting.get(deviceId) === waiters) this.waiting.delete(deviceId);
      wake();
    };
    return { changed, end };
  }

  private wake(deviceId: string): void {
    for (const wake of this.waiting.get(deviceId) ?? []) wake();
  }

  /** Answers every held call (the instance is closing, or lost its listener). */
  wakeAll(): void {
    for (const waiters of this.waiting.values()) for (const wake of waiters) wake();
  }
}
