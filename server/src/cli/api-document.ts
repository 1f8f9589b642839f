import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { buildApp } from '../app.js';
import { loadOrCreateKeys, publicKeySet } from '../auth/embedded/keys.js';
import { DatabaseListener } from '../db/listener.js';
import { PrincipalCache } from '../auth/principal-cache.js';
import { createTokenVerifier } from '../auth/verify.js';
import { loadConfig } from '../config.js';
import { createScriptSigner, newScriptSigningKey } from '../crypto/script-signer.js';
import { createSecretBox } from '../crypto/secret-box.js';
import { ChangeCounters } from '../db/change-counters.js';
import { connect } from '../db/database.js';
import { API_DIGEST, API_VERSION } from '@cfs/contracts/api-version';
import { apiDigest, nextApiVersion, type OpenApiDocument } from '../http/api-document.js';
import { commandWithoutArguments, runCommand } from './command.js';

const clientRoot = path.resolve(import.meta.dirname, '..', '..', '..', 'client');

/** Where the API's document is kept: the typed client (client/) is generated from it. */
export const API_DOCUMENT_FILE = path.join(clientRoot, 'openapi.json');

/** The client's types, generated from the document by openapi-typescript. */
export const CLIENT_TYPES_FILE = path.join(clientRoot, 'src', 'schema.ts');

/**
 * The OpenAPI document the portal serves at /openapi.json, as text: built from the routes alone,
 * on a pool that never connects (registering the routes reads no row) and throw-away keys, with
 * the default PUBLIC_URL as its server.
 */
export async function buildApiDocument(): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-api-document-'));
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://127.0.0.1:1/unused', LOG_LEVEL: 'silent' });
  const db = connect(config.databaseUrl ?? '', 1);
  try {
    const keys = await loadOrCreateKeys(dataDir);
    const app = await buildApp({
      db,
      config,
      verifier: createTokenVerifier(config, publicKeySet(keys)),
      secretBox: createSecretBox(randomBytes(32), []),
      scriptSigner: createScriptSigner(newScriptSigningKey()),
      listener: new DatabaseListener(),
      principals: new PrincipalCache(),
      changes: new ChangeCounters(),
      logger: false,
    });
    await app.ready();
    const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    return text;
  } finally {
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const API_VERSION_FILE = path.resolve(import.meta.dirname, '..', '..', '..', 'contracts', 'src', 'api-version.ts');

/**
 * Writes the document, and when the API changed (its digest is not API_DIGEST's), a new
 * API_VERSION (nextApiVersion) and digest into contracts/src/api-version.ts, which the served
 * document reads.
 */
async function writeApiDocument(): Promise<{ text: string; version: string }> {
  const document = JSON.parse(await buildApiDocument()) as OpenApiDocument;
  const digest = apiDigest(document);
  if (digest !== API_DIGEST) {
    const previous = await fs
      .readFile(API_DOCUMENT_FILE, 'utf8')
      .then((text) => JSON.parse(text) as OpenApiDocument)
      .catch(() => undefined);
    // The first document keeps the version it was given.
    const version = API_DIGEST === '' ? API_VERSION : nextApiVersion(API_VERSION, previous, document);
    const source = await fs.readFile(API_VERSION_FILE, 'utf8');
    await fs.writeFile(
      API_VERSION_FILE,
      source
        .replace(/API_VERSION: string = '[^']*'/, `API_VERSION: string = '${version}'`)
        .replace(/API_DIGEST: string = '[^']*'/, `API_DIGEST: string = '${digest}'`),
    );
    document.info.version = version;
  }
  const text = `${JSON.stringify(document, null, 2)}\n`;
  await fs.writeFile(API_DOCUMENT_FILE, text);
  return { text, version: document.info.version };
}

/**
 * The TypeScript types of the document (its `paths`, `components` and `operations`) as
 * openapi-typescript writes them with its default settings: what the typed client (client/src/client.ts)
 * checks each call against.
 */
export async function generateClientTypes(documentText: string): Promise<string> {
  const nodes = await openapiTS(documentText, { silent: true });
  return `${COMMENT_HEADER}${astToString(nodes)}`;
}

/**
 * `npm run api:document`: writes client/openapi.json (raising the API's version when it changed) and the client's types generated from it
 * (client/src/schema.ts), which server tests keep equal to the routes' document.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  commandWithoutArguments('Usage: npm run api:document');
  runCommand(async () => {
    const { text, version } = await writeApiDocument();
    console.log(`Wrote client/openapi.json (API version ${version})`);
    await fs.writeFile(CLIENT_TYPES_FILE, await generateClientTypes(text));
    console.log('Wrote client/src/schema.ts');
  });
}
