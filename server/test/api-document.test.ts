import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_DIGEST, API_VERSION } from '@cfs/contracts/api-version';
import { API_DOCUMENT_FILE, CLIENT_TYPES_FILE, generateClientTypes } from '../src/cli/api-document.js';
import { apiDigest, type OpenApiDocument } from '../src/http/api-document.js';
import { createTestPortal, type TestPortal } from './harness.js';

/**
 * The typed client (`@cfs/client`) is generated: client/openapi.json is the document the routes
 * make, and client/src/schema.ts the types openapi-typescript makes from it (both written by
 * `npm run api:document`). A route changed without running it fails here; a change that breaks a
 * caller of the client fails the caller's typecheck (the last test shows one).
 */

const RUN = 'run `npm run api:document` to write it again';
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

type Document = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

/** A document without `servers`, which names the portal's PUBLIC_URL and so differs from portal to portal. */
function withoutServers(document: Document): Document {
  const { servers: _servers, ...rest } = document;
  return rest as Document;
}

describe('the API document and the client generated from it', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal();
  });
  afterAll(() => portal.close());

  test('client/openapi.json is the document the portal serves at /openapi.json', async () => {
    const served = await portal.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(served.statusCode).toBe(200);
    const kept = JSON.parse(await fs.readFile(API_DOCUMENT_FILE, 'utf8')) as Document;
    expect(withoutServers(kept), `client/openapi.json is not the routes' document: ${RUN}`).toEqual(
      withoutServers(served.json<Document>()),
    );
  });

  test('carries the version its digest names (npm run api:document raises it when the API changes) and PUBLIC_URL as its server', async () => {
    const served = (await portal.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
    expect(apiDigest(served), `the API changed but not its version: ${RUN}`).toBe(API_DIGEST);
    expect(served.info.version).toBe(API_VERSION);
    expect(served.servers?.[0]?.variables).toEqual({
      publicUrl: { default: 'http://portal.test', description: "The portal's address (PUBLIC_URL)" },
    });
  });

  test('client/src/schema.ts is what openapi-typescript generates from client/openapi.json', async () => {
    const generated = await generateClientTypes(await fs.readFile(API_DOCUMENT_FILE, 'utf8'));
    const kept = await fs.readFile(CLIENT_TYPES_FILE, 'utf8');
    // Compared as text first: a difference in 12,000 lines is told in one line, not as a diff.
    if (kept !== generated) expect.fail(`client/src/schema.ts is not generated from client/openapi.json: ${RUN}`);
  }, 60_000);

  test("a field renamed in the document breaks the typecheck of a caller of the client (the tenant's name)", async () => {
    // The same caller compiled twice, beside the client's sources: against the types of the kept
    // document (it compiles), and against the types of a copy whose tenant `name` is `tenantName`
    // in PUT /v1/tenants' body and answer (it does not, at the lines that use the field).
    const document = JSON.parse(await fs.readFile(API_DOCUMENT_FILE, 'utf8')) as Document;
    const renamed = structuredClone(document);
    const put = renamed.paths['/v1/tenants']?.put as {
      requestBody: { content: { 'application/json': { schema: ObjectSchema } } };
      responses: { 200: { content: { 'application/json': { schema: ObjectSchema } } } };
    };
    renameProperty(put.requestBody.content['application/json'].schema, 'name', 'tenantName');
    renameProperty(put.responses[200].content['application/json'].schema, 'name', 'tenantName');

    const folder = path.join(repoRoot, '.tmp', `api-rename-${randomBytes(4).toString('hex')}`);
    try {
      const clientSource = await fs.readFile(path.join(repoRoot, 'client', 'src', 'client.ts'), 'utf8');
      const types = {
        kept: await fs.readFile(CLIENT_TYPES_FILE, 'utf8'),
        renamed: await generateClientTypes(JSON.stringify(renamed)),
      };
      for (const [name, schema] of Object.entries(types)) {
        await fs.mkdir(path.join(folder, name), { recursive: true });
        await fs.writeFile(path.join(folder, name, 'client.ts'), clientSource);
        await fs.writeFile(path.join(folder, name, 'schema.ts'), schema);
        await fs.writeFile(path.join(folder, name, 'caller.ts'), CALLER);
      }
      await fs.writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify(FIXTURE_TSCONFIG));
      const output = await typecheck(folder);
      const errors = output.split('\n').filter((line) => line.includes('error TS'));
      expect(errors.filter((line) => line.startsWith('kept/'))).toEqual([]);
      expect(errors).toEqual([
        expect.stringMatching(/^renamed\/caller\.ts\(5,63\): error TS2353: .*'name' does not exist in type/),
        expect.stringMatching(/^renamed\/caller\.ts\(6,17\): error TS2339: Property 'name' does not exist on type/),
      ]);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

interface ObjectSchema {
  properties: Record<string, unknown>;
  required?: string[];
}

function renameProperty(schema: ObjectSchema, from: string, to: string): void {
  schema.properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, value]) => [key === from ? to : key, value]),
  );
  schema.required = schema.required?.map((key) => (key === from ? to : key));
}

/** What the factories do with the client: create a tenant by its name, and read the name it answers. */
const CALLER = `import { createPortalClient, ok } from './client.js';

export async function createTenant(token: string): Promise<string> {
  const client = createPortalClient({ baseUrl: 'https://portal.example', token });
  const tenant = await ok(client.PUT('/v1/tenants', { body: { name: 'Contoso' } }));
  return tenant.name;
}
`;

const FIXTURE_TSCONFIG = {
  extends: '../../tsconfig.base.json',
  compilerOptions: {
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    noEmit: true,
    types: [],
  },
  include: ['kept', 'renamed'],
};

/** `tsc --noEmit` over the folder: its output (the errors, one a line), whether it fails or not. */
async function typecheck(folder: string): Promise<string> {
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: folder,
    });
    return stdout;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}
