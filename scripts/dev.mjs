// `npm run dev`: the server with reload on change (tsx watch) and Vite with hot module reload.
// Open http://localhost:5173; the API, sign-in and docs are proxied to the server on :8080, and the
// portal's public address is Vite's, so sign-in stays on one origin.
import { ensureInstalled, root } from './lib.mjs';
import { spawn } from 'node:child_process';

await ensureInstalled();
const env = { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' };
const children = [
  spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--watch', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn('npx', ['vite'], { cwd: `${root}/web`, stdio: 'inherit', env }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
