import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openRuntime } from './runtime.js';
import { AREAS } from './areas.js';
import { startWorker } from './engines/worker.js';
import { agentCommand, prepareDemoAgent, runDemoAgent } from './areas/agent/demo-agent.js';
import { registerAgentRelease } from './areas/packages/agent-release.js';
import { createLogger } from './observability/logger.js';
import { serveMetrics } from './observability/metrics-server.js';
import { portProblem, rootMessage, StartupProblem } from './startup-problems.js';

const packageJson = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
) as { version: string };

/** The server process: `ROLE=api` serves HTTP, `ROLE=worker` runs the engines, `all` (default) both. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, packageJson.version);
  // The embedded database server's own log is shown at debug level.
  const databaseLog = ['debug', 'trace'].includes(config.logLevel)
    ? (message: string) => console.log(message)
    : undefined;
  const runtime = await openRuntime(config, databaseLog ? { log: databaseLog } : {});
  const stops: (() => Promise<void>)[] = [];
  // A port that cannot be had ends the start with one sentence saying what to do, after what had
  // started (the worker, the embedded database server) has stopped.
  const listening = async <T>(listen: Promise<T>, port: number, variable: string): Promise<T> => {
    try {
      return await listen;
    } catch (error) {
      const problem = portProblem(error, config.host, port, variable);
      if (problem) {
        for (const close of stops) await close();
        await runtime.closeDatabase();
      }
      throw problem ?? error;
    }
  };

  const logger = createLogger(config, { role: config.role });
  // Graceful, from the moment there is anything to stop (a signal during the start stops what has
  // started): the listener stops taking connections and answers the requests it has, the worker
  // stops claiming and finishes the jobs in hand, then the database closes. A second signal, or
  // SHUTDOWN_TIMEOUT_SECONDS, ends the process at once (a job cut short is claimed again later).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests and jobs in hand');
    setTimeout(() => {
      logger.warn('stopping took too long: exiting');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
    for (const close of stops) await close();
    await runtime.closeDatabase();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (config.metrics.port)
    stops.push(
      await listening(
        serveMetrics(runtime.db, config.host, config.metrics.port, (error) =>
          logger.error({ err: error }, 'Metrics could not be read'),
        ),
        config.metrics.port,
        'METRICS_PORT',
      ),
    );
  if (config.role !== 'api')
    stops.push(
      startWorker(
        runtime,
        AREAS.flatMap((area) => area.tasks ?? []),
      ),
    );
  if (config.role !== 'worker') {
    const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}) });
    await listening(
      app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
        await app.close();
        throw error;
      }),
      config.port,
      'PORT',
    );
    app.log.info(`${config.environment.name} serves ${config.publicUrl}`);
    // An external identity provider that cannot be read is said at once, not at the first sign-in;
    // the portal serves on, and reads it again at the next sign-in.
    void runtime.verifier
      .reach()
      .catch((error: unknown) =>
        app.log.warn(
          `The identity provider at ${config.oidc.authority} (OIDC_AUTHORITY) could not be read: ${rootMessage(error)}. Nobody can sign in until it can.`,
        ),
      );
    if (config.demoSeed && !process.env.HOST) {
      console.log(
        `Demo accounts are on (admin/admin, operator/operator…), so the portal listens on ${config.host} only.\n` +
          'To serve other machines, change the demo passwords first, then start with HOST=0.0.0.0 and PUBLIC_URL set to the address they use.',
      );
    }
    stops.push(() => app.close());
    // The agent this portal was built with becomes a version of the agent package (agent updates).
    await registerAgentRelease(runtime.db, config).then(
      (said) => app.log.info(said),
      (error: unknown) => app.log.error({ err: error }, 'The agent version could not be registered'),
    );
    if (config.demoAgent) {
      // The demo's agent is a nicety: a portal that cannot start it still serves.
      try {
        const command = agentCommand(config);
        const demo = command && (await prepareDemoAgent(runtime.db, config));
        if (command && demo)
          stops.unshift(
            runDemoAgent(command, { server: config.publicUrl, ...demo, log: (line) => app.log.info(line) }),
          );
        else if (!command) app.log.warn('The demo agent is not built (npm run build): the portal runs without it.');
      } catch (error) {
        app.log.error({ err: error }, 'The demo agent could not be started');
      }
    }
  }
}

main().catch((error: unknown) => {
  // A problem the administrator can fix is said in its own words; anything else with its stack.
  console.error(error instanceof StartupProblem ? error.message : error);
  process.exit(1);
});
