import path from 'node:path';
import { restore } from '../db/backup.js';
import { commandArgument, commandConfig, runCommand } from './command.js';

/** `npm run restore -- <folder>` with the portal's settings (DATA_DIR, DATABASE_URL): see the README's "Backup and restore". */
runCommand(async () => {
  const folder = commandArgument('usage: npm run restore -- <backup folder>');
  await restore(commandConfig(), path.resolve(folder));
});
