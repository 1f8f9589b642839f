import fs from 'node:fs';

/**
 * What stops the portal from starting, said to the administrator who started it: a setting that
 * is wrong, a database it cannot reach, a port it cannot have. The server program prints such an
 * error's message alone (no stack: the message says what to change) and exits with 1.
 */
export class StartupProblem extends Error {
  override readonly name = 'StartupProblem';
}

/** The error's code (Node's `EADDRINUSE`, PostgreSQL's `3D000`), looked for along its causes. */
function codeOf(error: unknown): string | undefined {
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    if ('code' in at && typeof at.code === 'string') return at.code;
  }
  return undefined;
}

/** The innermost message along the error's causes: the driver's or the server's own words. */
export function rootMessage(error: unknown): string {
  let at: unknown = error;
  while (at instanceof Error && at.cause instanceof Error) at = at.cause;
  return at instanceof Error ? at.message : String(at);
}

/**
 * A failure to reach or sign in to the database at `url` (`DATABASE_URL`), said as what to check;
 * undefined for any other error (a migration that failed on a reachable database keeps its own).
 */
export function databaseProblem(error: unknown, url: string): StartupProblem | undefined {
  const variable = 'DATABASE_URL';
  let where: URL;
  try {
    where = new URL(url);
  } catch {
    return undefined;
  }
  const database = decodeURIComponent(where.pathname.replace(/^\//, '')) || 'postgres';
  const user = decodeURIComponent(where.username) || 'the default user';
  // A socket's folder stands as the host (`postgres:///portal?host=/var/run/postgresql`).
  const host = where.hostname || where.searchParams.get('host') || 'localhost';
  const server = `${host}:${where.port || '5432'}`;
  const said = (text: string) => new StartupProblem(text, { cause: error });
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return said(
        `The database server at ${server} (${variable}) refused the connection: is PostgreSQL running there?`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return said(`The database server's host ${host} (${variable}) was not found.`);
    case 'ETIMEDOUT':
      return said(`The database server at ${server} (${variable}) did not answer.`);
    case '3D000':
      return said(`The database "${database}" does not exist on ${server} (${variable}): create it first.`);
    case '28000':
    case '28P01':
      return said(
        `The database server at ${server} (${variable}) refused the sign-in as ${user}: ${rootMessage(error)}.`,
      );
    default:
      return undefined;
  }
}

/**
 * A port the portal cannot listen on (`EADDRINUSE`, `EACCES`), said with the setting that moves
 * it; undefined for any other error.
 */
export function portProblem(error: unknown, host: string, port: number, variable: string): StartupProblem | undefined {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new StartupProblem(
        `Port ${port} on ${host} is in use by another program. Stop that program, or start the portal on another port, e.g. ${variable}=${port + 1} npm start.`,
        { cause: error },
      );
    case 'EACCES':
      return new StartupProblem(
        `This user may not listen on port ${port} on ${host} (ports below 1024 need privileges). Start the portal on another port, e.g. ${variable}=${port + 8000} npm start.`,
        { cause: error },
      );
    default:
      return undefined;
  }
}

/**
 * Makes the data folder (`DATA_DIR`) if it is missing; one the portal cannot write (a file of that
 * name, a folder of another user, a read-only disk) is said as such before anything else starts.
 */
export function ensureDataDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    const code = codeOf(error);
    if (!code || !['ENOTDIR', 'EEXIST', 'EACCES', 'EPERM', 'EROFS'].includes(code)) throw error;
    throw new StartupProblem(
      `The data folder ${dir} (DATA_DIR) cannot hold the portal's data: ${rootMessage(error)}. Choose a folder this user may write.`,
      { cause: error },
    );
  }
}
