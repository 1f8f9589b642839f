import path from 'node:path';
import { backup } from '../db/backup.js';
import { commandArgument, commandConfig, runCommand } from './command.js';

/** `npm run backup -- <folder>` with the portal's settings (DATA_DIR, DATABASE_URL): see the README's "Backup and restore". */
runCommand(async () => {
  const folder = commandArgument('usage: npm run backup -- <backup folder>');
  await backup(commandConfig(), path.resolve(folder));
});
