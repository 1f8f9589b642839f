import type { AgentLog } from './agent-log.js';
import { backoffDelay } from './backoff.js';
import type { Outbox, OutboxItem, SendOutcome } from './outbox.js';
import { PortalError, type PortalClient } from './portal-client.js';
import { Sleeper } from './sleeper.js';

/** How long a delivered outbox waits for new items before it looks again on its own. */
const IDLE_MS = 10_000;

/**
 * Carries the outbox to the portal: each batch to its endpoint with the device credential,
 * removed from disk only once the portal answered 2xx. While the portal is away it tries again
 * with backoff; otherwise it waits until new items wake it.
 */
export class OutboxDelivery {
  private readonly idle = new Sleeper();

  constructor(
    private readonly outbox: Outbox,
    private readonly client: PortalClient,
    private readonly credential: () => string,
    private readonly log: AgentLog,
  ) {}

  /** New items wait: send them now, unless the portal is away (then the backoff decides when). */
  wake(): void {
    this.idle.wake();
  }

  /** Sends what waits in the outbox; false when the portal could not take it now. */
  flush(): Promise<boolean> {
    return this.outbox.flush((items) => this.send(items));
  }

  /**
   * Delivers until `active()` turns false. A refused credential goes to `refused`, which returns
   * true when delivery must end (the session is over).
   */
  async run(active: () => boolean, refused: (error: unknown) => boolean): Promise<void> {
    let failures = 0;
    while (active()) {
      let empty = false;
      try {
        empty = await this.flush();
      } catch (error) {
        if (refused(error)) return;
        this.log.warn(`The outbox could not be sent: ${(error as Error).message}`);
      }
      if (empty) {
        failures = 0;
        await this.idle.sleep(IDLE_MS);
      } else {
        failures += 1;
        // Not woken by new items while the portal is away: they wait for the backoff like the rest.
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures, { baseMs: 2000, maxMs: 120_000 })));
      }
    }
  }

  private async send(items: OutboxItem[]): Promise<SendOutcome> {
    const first = items[0]!;
    const credential = this.credential();
    try {
      switch (first.kind) {
        case 'packet':
          await this.client.json(
            'POST',
            '/v1/packets',
            credential,
            items.flatMap((item) => (item.kind === 'packet' ? [item.packet] : [])),
          );
          break;
        case 'deviceLog':
          await this.client.json('POST', '/v1/agent/logs', credential, {
            entries: items.flatMap((item) => (item.kind === 'deviceLog' ? [item.entry] : [])),
          });
          break;
        case 'operationLog':
          await this.client.json('POST', `/v1/agent/operations/${first.deviceOperationId}/logs`, credential, {
            entries: items.flatMap((item) => (item.kind === 'operationLog' ? [item.entry] : [])),
          });
          break;
        case 'complete':
          await this.client.json('POST', `/v1/agent/operations/${first.deviceOperationId}/complete`, credential, {
            completionToken: first.completionToken,
          });
          break;
        case 'scriptRun':
          await this.client.json(
            'POST',
            `/v1/agent/operations/${first.deviceOperationId}/scriptruns`,
            credential,
            first.run,
          );
          break;
      }
      return 'sent';
    } catch (error) {
      if (!(error instanceof PortalError)) throw error;
      if (error.refused) throw error;
      if (error.transient) return 'retry';
      // Refused for good (an operation deleted since, a completion dequeued): kept, it would block everything after it.
      this.log.warn(`The portal refused ${items.length} ${first.kind} item(s): ${error.message}`);
      return 'drop';
    }
  }
}
