import type { Outbox } from './outbox.js';

export type LogLevel = 'Error' | 'Warning' | 'Info' | 'Trace';

/**
 * The agent's log: always on its console, and as device logs to the portal unless the device's
 * logging level is None. Trace entries are written only while the portal has tracing on for
 * the device (Toggle Tracing), so a device tells more for a while and then goes quiet again.
 */
export class AgentLog {
  loggingLevel: 'All' | 'None' = 'All';
  tracing = false;
  outbox: Outbox | undefined;

  constructor(private readonly quiet = false) {}

  private write(level: LogLevel, detail: string): void {
    if (level === 'Trace' && !this.tracing) return;
    if (!this.quiet || level === 'Error') {
      const line = `${new Date().toISOString()} ${level.padEnd(7)} ${detail}`;
      if (level === 'Error' || level === 'Warning') console.error(line);
      else console.log(line);
    }
    if (this.outbox && this.loggingLevel === 'All') {
      void this.outbox
        .append({
          kind: 'deviceLog',
          entry: { created: new Date().toISOString(), entryType: level, detail: detail.slice(0, 8000) },
        })
        .catch(() => undefined);
    }
  }

  error(detail: string): void {
    this.write('Error', detail);
  }
  warn(detail: string): void {
    this.write('Warning', detail);
  }
  info(detail: string): void {
    this.write('Info', detail);
  }
  trace(detail: string): void {
    this.write('Trace', detail);
  }
}
