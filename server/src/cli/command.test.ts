import { describe, expect, test } from 'vitest';
import { spawnCommand } from '../../test/processes.js';
import { readArguments } from './command.js';

const USAGE = 'usage: npm run backup -- <backup folder>';

describe("a command's arguments", () => {
  test('the one argument it takes', () => {
    expect(readArguments(['/srv/backups/monday'], USAGE, 1)).toEqual({ values: ['/srv/backups/monday'] });
    expect(readArguments([], USAGE, 0)).toEqual({ values: [] });
  });

  test('--help and -h ask for the usage line, which is no error', () => {
    expect(readArguments(['--help'], USAGE, 1)).toEqual({ exitCode: 0, message: USAGE });
    expect(readArguments(['-h'], USAGE, 0)).toEqual({ exitCode: 0, message: USAGE });
  });

  test('another option, or too few or too many arguments, is an error with the usage line', () => {
    expect(readArguments(['--force'], USAGE, 1)).toEqual({ exitCode: 2, message: `Unknown option --force\n${USAGE}` });
    expect(readArguments(['folder', '-v'], USAGE, 1)).toEqual({ exitCode: 2, message: `Unknown option -v\n${USAGE}` });
    expect(readArguments([], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments([''], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments(['one', 'two'], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments(['now'], USAGE, 0)).toEqual({ exitCode: 2, message: USAGE });
  });

  test('npm run token -- --help prints its usage and no token', async () => {
    const run = spawnCommand('token.ts', ['--help']);
    expect({ code: await run.exited(), output: run.output() }).toEqual({
      code: 0,
      output: 'usage: npm run --silent token -- <user name>\n',
    });
  });
});
