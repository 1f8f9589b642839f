import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';

/**
 * What every `npm run <command>` of the portal shares: the settings the server would read, with
 * the installed version, the one argument it takes, and a failure told as a message and exit 1.
 *
 * @example
 *   runCommand(async () => {
 *     const folder = commandArgument('usage: npm run backup -- <backup folder>');
 *     await backup(commandConfig(), path.resolve(folder));
 *   });
 */
export function commandConfig(): Config {
  const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  return loadConfig(process.env, packageJson.version);
}

/** The command's first argument; without it the usage line is printed and the command ends with 2. */
export function commandArgument(usage: string): string {
  const value = process.argv[2];
  if (!value) {
    console.error(usage);
    process.exit(2);
  }
  return value;
}

export function runCommand(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
