import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';

/**
 * Writes `content` to `file` (owner-only) unless the file exists, and answers the file's content:
 * this call's, or the one that was there first. Processes starting together on one DATA_DIR (api
 * and worker instances) thus agree on one key, and none reads a file half written: the content
 * is written to a file of its own first and linked into place in one step, which fails when the
 * name is taken.
 */
export async function writeOnce(file: string, content: string): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, content, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(temp, file);
    return content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return await fs.readFile(file, 'utf8');
  } finally {
    await fs.rm(temp, { force: true });
  }
}
