import path from 'node:path';
import ts from 'typescript';

export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
export const SOURCE_ROOT = path.join(SERVER_ROOT, 'src');

/**
 * What the structure tests leave out: the installation's own set-up (the seed, the demo work
 * units, the migrations) and the generic machinery that queries a table its caller names.
 */
const NOT_CHECKED = [/^db\/seed\.ts$/, /^db\/demo-work-units\.ts$/, /^db\/migrations\//, /^db\/scoped\.ts$/];

export interface ServerSources {
  checker: ts.TypeChecker;
  /** The server's source files but tests and NOT_CHECKED, each with its path below `src/`. */
  files: { file: ts.SourceFile; relative: string }[];
}

let built: ServerSources | undefined;

/**
 * The server's source as its tsconfig.json builds it, with the type checker: what the tests that
 * read the code's structure walk (tenant-tables, table-owners). Built once per process: the
 * server suite's files share their worker's modules, so the second test reads the first's.
 */
export function serverSources(): ServerSources {
  if (built) return built;
  const configFile = ts.findConfigFile(SERVER_ROOT, ts.sys.fileExists, 'tsconfig.json');
  if (!configFile) throw new Error('server/tsconfig.json not found');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, SERVER_ROOT);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
  const files = program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(SOURCE_ROOT + path.sep) && !file.fileName.endsWith('.test.ts'))
    .map((file) => ({ file, relative: path.relative(SOURCE_ROOT, file.fileName).split(path.sep).join('/') }))
    .filter(({ relative }) => !NOT_CHECKED.some((pattern) => pattern.test(relative)));
  built = { checker: program.getTypeChecker(), files };
  return built;
}
