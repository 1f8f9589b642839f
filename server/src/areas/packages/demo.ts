import { createHash } from 'node:crypto';
import {
  EXECUTABLE_TYPES,
  FREQUENCY_TYPES,
  OPERATING_SYSTEMS,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PACKAGE_VERSION_STATUSES,
} from '@cfs/contracts/fleet';
import type { ParameterDefinition } from '@cfs/contracts/packages';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';
import type { FileStore } from '../../files/content-store.js';

/**
 * The demo catalogue. The devices, device operations and agent areas rely on the tenantless
 * "CFS Agent" package and its operations "Metric" and "Availability" exactly as written here.
 */
const param = (name: string, options: Partial<ParameterDefinition> = {}): ParameterDefinition => ({
  Name: name,
  Description: null,
  Required: false,
  Source: 'PortalEntry',
  DefaultValue: null,
  ...options,
});

const ALL_OS = [OPERATING_SYSTEMS.WinX64, OPERATING_SYSTEMS.OsxX64, OPERATING_SYSTEMS.LinuxX64];
const RECURRING_AND_ON_DEMAND = [FREQUENCY_TYPES.OnDemand, FREQUENCY_TYPES.Recurring];

interface DemoOperation {
  name: string;
  description: string;
  type: number;
  resultType: number;
  frequencies: number[];
  intervalSeconds: number;
  parameters: ParameterDefinition[];
}

interface DemoPackage {
  name: string;
  tenant: 'shared' | 'contoso' | 'fabrikam';
  description: string;
  packageType: number;
  executableName: string;
  executableType: number;
  operatingSystems: number[];
  operations: DemoOperation[];
  versions: { version: string; label: string; content: string }[];
}

const AGENT_OPERATIONS: DemoOperation[] = [
  {
    name: 'Metric',
    description: 'CPU and memory of the host.',
    type: OPERATION_TYPES.Metric,
    resultType: OPERATION_RESULT_TYPES.Numeric,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 60,
    parameters: [],
  },
  {
    name: 'Availability',
    description: 'Calls a URL and reports whether it answered.',
    type: OPERATION_TYPES.Availability,
    resultType: OPERATION_RESULT_TYPES.Text,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 60,
    parameters: [
      param('Url', {
        Description: 'The address to call (https://…), or tcp://host:port for a port that must accept a connection.',
        Required: true,
      }),
      param('Method', { Description: 'The HTTP method.', DefaultValue: 'GET' }),
    ],
  },
  {
    name: 'Api Read',
    description: 'Reads one value of a JSON API answer.',
    type: OPERATION_TYPES.ApiRead,
    resultType: OPERATION_RESULT_TYPES.Text,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 300,
    parameters: [
      param('Url', { Description: 'The API address.', Required: true }),
      param('JsonPath', { Description: 'Where the value is, e.g. $.status.', Required: true }),
    ],
  },
  {
    name: 'Read File',
    // The agent reads only its data folder unless its machine allows more (agent/src/read-allow.ts).
    description:
      'Reads a file on the device: in the agent’s data folder, or in a folder the device’s owner allowed with --read-allow.',
    type: OPERATION_TYPES.LocalFileRead,
    resultType: OPERATION_RESULT_TYPES.Text,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 300,
    parameters: [
      param('Path', {
        Description:
          'The file: a path relative to the agent’s data folder, or a full path inside a folder allowed with --read-allow.',
        Required: true,
      }),
      param('Pattern', {
        Description: 'Optional: a regular expression; its first group (or the whole match) is the value.',
      }),
    ],
  },
  {
    name: 'Synthetic',
    description: 'Runs HTTP steps in order, as a user would.',
    type: OPERATION_TYPES.Synthetic,
    resultType: OPERATION_RESULT_TYPES.Text,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 600,
    parameters: [
      param('Steps', {
        Description: 'A JSON list of HTTP steps: [{"Url": "...", "Method": "GET", "ExpectStatus": 200}].',
        Required: true,
        DefaultValue: JSON.stringify([{ Url: 'https://example.com/', Method: 'GET', ExpectStatus: 200 }]),
      }),
    ],
  },
  {
    name: 'Sign In',
    description:
      'Signs in with a user name and password: an OAuth 2 / OpenID Connect token request (password grant), or a JSON form post when Mode is Form.',
    type: OPERATION_TYPES.Authentication,
    resultType: OPERATION_RESULT_TYPES.Text,
    frequencies: RECURRING_AND_ON_DEMAND,
    intervalSeconds: 900,
    parameters: [
      param('Url', {
        Description:
          'The token endpoint, or the issuer’s /.well-known/openid-configuration address; with Mode Form, the address the form posts to.',
        Required: true,
      }),
      param('Username', { Required: true }),
      param('Password', {
        Description: 'Read by the agent from its secret store.',
        Required: true,
        Source: 'SecuredValue',
        SecuredValues: [
          { PlaceholderKeyForSecretValue: '{{Password}}', SecuredSourceKeyToGetSecretValue: 'signin/password' },
        ],
      }),
      param('ClientId', { Description: 'Optional: the OAuth client the token is asked for.' }),
      param('Mode', {
        Description: 'Token (a token request) or Form (a JSON post of username and password that must answer 2xx).',
        DefaultValue: 'Token',
      }),
    ],
  },
];

const DEMO_PACKAGES: DemoPackage[] = [
  {
    name: 'CFS Agent',
    tenant: 'shared',
    description: 'The agent’s own checks: host metrics, availability, API reads, files, synthetic steps and sign-in.',
    packageType: PACKAGE_TYPES.AgentLogic,
    executableName: 'cfs-agent',
    executableType: EXECUTABLE_TYPES.Executable,
    operatingSystems: ALL_OS,
    operations: AGENT_OPERATIONS,
    versions: [
      {
        version: '1.0.0',
        label: 'First release',
        content: '// CFS Agent logic 1.0.0\nmodule.exports = { version: "1.0.0" };\n',
      },
      {
        version: '1.1.0',
        label: 'Availability checks follow redirects',
        content: '// CFS Agent logic 1.1.0\nmodule.exports = { version: "1.1.0" };\n',
      },
      {
        version: '1.2.0-beta.1',
        label: 'Synthetic steps preview',
        content: '// CFS Agent logic 1.2.0-beta.1\nmodule.exports = { version: "1.2.0-beta.1" };\n',
      },
    ],
  },
  {
    name: 'Disk Space Check',
    tenant: 'contoso',
    description: 'Reports the free space of a disk of the device.',
    packageType: PACKAGE_TYPES.ScriptRunner,
    executableName: 'disk-space.sh',
    executableType: EXECUTABLE_TYPES.Script,
    operatingSystems: [OPERATING_SYSTEMS.LinuxX64, OPERATING_SYSTEMS.OsxX64],
    operations: [
      {
        name: 'Free Disk Space',
        description: 'Percentage of the disk that holds Mount that is free (the value; DiskPercent is the part used).',
        type: OPERATION_TYPES.Metric,
        resultType: OPERATION_RESULT_TYPES.Numeric,
        frequencies: [FREQUENCY_TYPES.Recurring],
        intervalSeconds: 300,
        // The Mount is what makes the agent's Metric a disk figure: without it, it would report the CPU.
        parameters: [
          param('Mount', {
            Description: 'A mount point or any path on the disk (Linux, macOS: /), or a drive (Windows: C:).',
            Required: true,
            DefaultValue: '/',
          }),
        ],
      },
    ],
    versions: [
      {
        version: '0.9.0',
        label: 'Initial script',
        content: '#!/bin/sh\ndf -P "${MOUNT:-/}" | awk \'NR==2 {print 100 - $5}\'\n',
      },
    ],
  },
  {
    name: 'Line Controller Watcher',
    tenant: 'fabrikam',
    description: 'Watches the plant line controllers’ status page.',
    packageType: PACKAGE_TYPES.Watcher,
    executableName: 'line-watcher.ps1',
    executableType: EXECUTABLE_TYPES.Script,
    operatingSystems: [OPERATING_SYSTEMS.WinX64],
    operations: [
      {
        name: 'Controller Status',
        description: 'Reads the controller’s status from its API.',
        type: OPERATION_TYPES.ApiRead,
        resultType: OPERATION_RESULT_TYPES.Text,
        frequencies: [FREQUENCY_TYPES.Recurring, FREQUENCY_TYPES.OnDemand],
        intervalSeconds: 120,
        parameters: [param('Url', { Required: true }), param('JsonPath', { DefaultValue: '$.state' })],
      },
    ],
    versions: [
      {
        version: '2.0.0',
        label: 'Status API v2',
        content: '# Line controller watcher 2.0.0\nInvoke-RestMethod $env:URL | Select-Object -ExpandProperty state\n',
      },
    ],
  },
];

/** Keeps the demo versions' files in the store; the same content always lands at the same address, so running it again changes nothing. */
export async function storeDemoPackageFiles(db: Db, files: FileStore): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const pkg of DEMO_PACKAGES) for (const version of pkg.versions) await files.put(trx, version.content);
  });
}

/** The demo catalogue's rows; their files are kept by `storeDemoPackageFiles`. */
export async function seedDemoPackages(trx: Tx, tenants: { contoso: string; fabrikam: string } = DEMO): Promise<void> {
  const everyone = scoped(trx, ALL_TENANTS);
  for (const pkg of DEMO_PACKAGES) {
    const { package_id } = await everyone
      .insertInto('package', {
        name: pkg.name,
        tenant_id: pkg.tenant === 'shared' ? null : tenants[pkg.tenant],
        description: pkg.description,
        package_type_id: pkg.packageType,
        executable_name: pkg.executableName,
        executable_type_id: pkg.executableType,
        operating_system_ids: pkg.operatingSystems,
        created_by: 'seed',
        modified_by: 'seed',
      })
      .returning('package_id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('operation')
      .values(
        pkg.operations.map((operation) => ({
          package_id,
          name: operation.name,
          description: operation.description,
          parameter_definitions: JSON.stringify(operation.parameters),
          frequency_type_ids: operation.frequencies,
          default_interval_seconds: operation.intervalSeconds,
          operation_type_id: operation.type,
          operation_result_type_id: operation.resultType,
          created_by: 'seed',
          modified_by: 'seed',
        })),
      )
      .execute();
    // Statuses as an upload in this order would leave them: the highest stable version is Latest.
    const stable = pkg.versions.filter((version) => !version.version.includes('-'));
    const latest = stable[stable.length - 1]?.version;
    await trx
      .insertInto('package_version')
      .values(
        pkg.versions.map((version, index) => {
          const buffer = Buffer.from(version.content, 'utf8');
          return {
            package_id,
            version: version.version,
            label: version.label,
            package_version_status_id: version.version.includes('-')
              ? PACKAGE_VERSION_STATUSES.PreRelease
              : version.version === latest
                ? PACKAGE_VERSION_STATUSES.Latest
                : PACKAGE_VERSION_STATUSES.Archived,
            file_sha256: createHash('sha256').update(buffer).digest('hex'),
            file_name: `${pkg.executableName}-${version.version}.txt`,
            file_size: buffer.length,
            created: new Date(Date.now() - (pkg.versions.length - index) * 86_400_000),
            created_by: 'seed',
          };
        }),
      )
      .execute();
  }
}
