import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { databaseProblem } from '../startup-problems.js';

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
  const packageJson = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
  ) as { version: string };
  return loadConfig(process.env, packageJson.version);
}

/** What a command's arguments ask for: the arguments it takes, or an end with what to print. */
export type ArgumentsReading = { values: string[] } | { exitCode: 0 | 2; message: string };

/**
 * Reads a command's arguments, `expected` of them: `--help` (or `-h`) asks for the usage line,
 * which is no error; another option, or too few or too many arguments, is told with the usage
 * line as an error (2).
 */
export function readArguments(args: readonly string[], usage: string, expected: number): ArgumentsReading {
  if (args[0] === '--help' || args[0] === '-h') return { exitCode: 0, message: usage };
  const option = args.find((arg) => arg.startsWith('-'));
  if (option !== undefined) return { exitCode: 2, message: `Unknown option ${option}\n${usage}` };
  if (args.length !== expected || args.includes('')) return { exitCode: 2, message: usage };
  return { values: [...args] };
}

function commandArguments(usage: string, expected: number): string[] {
  const reading = readArguments(process.argv.slice(2), usage, expected);
  if ('values' in reading) return reading.values;
  (reading.exitCode === 0 ? console.log : console.error)(reading.message);
  process.exit(reading.exitCode);
}

/** The command's one argument; otherwise the usage line is printed and the command ends (0 for --help, else 2). */
export function commandArgument(usage: string): string {
  const [value = ''] = commandArguments(usage, 1);
  return value;
}

/** For a command that takes no argument: `--help` prints the usage line; any argument ends it with 2. */
export function commandWithoutArguments(usage: string): void {
  commandArguments(usage, 0);
}

/**
 * Runs a command to its end; a failure ends it with its message and exit code 1. A database the
 * command cannot reach or sign in to (`DATABASE_URL`) is said as the server says it at start.
 */
export function runCommand(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const url = process.env.DATABASE_URL;
    const failure = (url ? databaseProblem(error, url) : undefined) ?? error;
    console.error(failure instanceof Error ? failure.message : failure);
    process.exit(1);
  });
}
