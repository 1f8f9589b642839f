import { sql } from 'kysely';
import { AREAS, VERBS, type Area } from '@cfs/contracts/permissions';
import { CUSTOM_FIELD_TYPES } from '@cfs/contracts/tenants';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { hashPassword } from '../auth/passwords.js';
import type { Db } from './database.js';
import type { FileStore } from '../files/content-store.js';
import { seedDemoWorkUnits } from './demo-work-units.js';
import { AREAS as AREA_MANIFESTS } from '../areas.js';
import { DEMO } from './demo-ids.js';

/** The roles every installation has. Permissions are stored without the configurable prefix. */
const STAFF_AREAS: readonly Area[] = AREAS.filter(
  (area) =>
    ![
      'Tenants',
      'Subscriptions',
      'Settings',
      'WorkUnits.Types',
      'Devices.HostAccess',
      'Devices.Scripts',
      'ServiceLevels',
    ].includes(area),
);
export const BASE_ROLES: Record<string, { description: string; permissions: string[] }> = {
  Administrator: {
    description: 'Every permission.',
    permissions: [...AREAS.flatMap((area) => VERBS.map((verb) => `${area}:${verb}`)), 'WorkUnits:view:mine'],
  },
  Operator: {
    description:
      'Staff: view, create, edit and delete in the operational areas of their tenants (not operations that read files or run scripts on a device); service levels they read.',
    permissions: [...STAFF_AREAS.flatMap((area) => VERBS.map((verb) => `${area}:${verb}`)), 'ServiceLevels:view'],
  },
  EndUser: {
    description: 'Resolution Center only: their own requests.',
    permissions: ['WorkUnits:view:mine'],
  },
};

const DEMO_CATEGORIES: Record<string, { name: string; type: number; visible: boolean; subcategories: string[] }[]> = {
  [DEMO.contoso]: [
    {
      name: 'End-user devices',
      type: WORK_UNIT_TYPES.Incident,
      visible: true,
      subcategories: ['Laptops', 'Printers', 'Phones'],
    },
    {
      name: 'Business applications',
      type: WORK_UNIT_TYPES.Incident,
      visible: true,
      subcategories: ['Email', 'ERP', 'Reporting'],
    },
    {
      name: 'Identity and access',
      type: WORK_UNIT_TYPES.Intake,
      visible: true,
      subcategories: ['New account', 'Permissions'],
    },
    {
      name: 'Data centre',
      type: WORK_UNIT_TYPES.ChangeRequest,
      visible: false,
      subcategories: ['Servers', 'Storage', 'Firewalls'],
    },
  ],
  [DEMO.fabrikam]: [
    {
      name: 'Plant systems',
      type: WORK_UNIT_TYPES.Incident,
      visible: true,
      subcategories: ['Line controllers', 'Sensors'],
    },
    { name: 'Office IT', type: WORK_UNIT_TYPES.Incident, visible: true, subcategories: ['Wi-Fi', 'Meeting rooms'] },
  ],
};

/**
 * Each demo tenant's custom work unit fields (spec 001 §3 Tenant: workUnitFieldN holds
 * `{ Name, Type, Options }`), so the work unit form and grid show them as a tenant would set them up.
 */
const DEMO_CUSTOM_FIELDS: Record<
  string,
  Partial<Record<'work_unit_field_1' | 'work_unit_field_2' | 'work_unit_field_3', string>>
> = {
  [DEMO.contoso]: {
    work_unit_field_1: JSON.stringify({
      Name: 'Business Unit',
      Type: CUSTOM_FIELD_TYPES.Dropdown,
      Options: 'Retail,Wholesale,Corporate',
    }),
    work_unit_field_3: JSON.stringify({ Name: 'Asset Tag', Type: CUSTOM_FIELD_TYPES.Textbox, Options: '' }),
  },
  [DEMO.fabrikam]: {
    work_unit_field_1: JSON.stringify({
      Name: 'Plant',
      Type: CUSTOM_FIELD_TYPES.Dropdown,
      Options: 'Redmond,Tacoma,Dublin',
    }),
    work_unit_field_2: JSON.stringify({ Name: 'Production Line', Type: CUSTOM_FIELD_TYPES.Textbox, Options: '' }),
  },
};

/**
 * Contoso's intake wizard form (spec 001 §3 Tenant: intake wizard form data): a new starter
 * request in three sections, so the demo's Create > Intake shows a wizard of three steps.
 */
export const DEMO_INTAKE_SCHEMA = {
  title: 'New starter request',
  description: 'Everything the service desk needs to have a new colleague ready on their first day.',
  type: 'object',
  required: ['person', 'equipment', 'access'],
  properties: {
    person: {
      type: 'object',
      title: 'Person',
      required: ['fullName', 'email', 'startDate'],
      properties: {
        fullName: { type: 'string', title: 'Full name', minLength: 3, maxLength: 200 },
        email: { type: 'string', title: 'Email', format: 'email' },
        startDate: { type: 'string', title: 'Start date', format: 'date' },
        manager: { type: 'string', title: 'Manager' },
      },
    },
    equipment: {
      type: 'object',
      title: 'Equipment',
      required: ['laptopModel'],
      properties: {
        laptopModel: {
          type: 'string',
          title: 'Laptop model',
          enum: ['Surface Laptop 7', 'ThinkPad X1 Carbon', 'MacBook Air 15'],
        },
        monitors: { type: 'integer', title: 'Monitors', minimum: 0, maximum: 3, default: 1 },
        headset: { type: 'boolean', title: 'Headset', default: false },
      },
    },
    access: {
      type: 'object',
      title: 'Access',
      required: ['systems', 'justification'],
      properties: {
        systems: {
          type: 'array',
          title: 'Systems',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: ['Email', 'ERP', 'CRM', 'Reporting', 'VPN'] },
        },
        justification: { type: 'string', title: 'Justification', minLength: 10, maxLength: 2000 },
      },
    },
  },
} as const;

const DEMO_USERS = [
  {
    userName: 'admin',
    displayName: 'Ada Admin',
    role: 'Administrator',
    tenant: DEMO.contoso,
    subscription: DEMO.contosoProduction,
    allTenants: true,
    groups: [],
  },
  {
    userName: 'operator',
    displayName: 'Oscar Operator',
    role: 'Operator',
    tenant: DEMO.contoso,
    subscription: DEMO.contosoProduction,
    allTenants: false,
    groups: ['Service Desk'],
  },
  {
    userName: 'enduser',
    displayName: 'Erin Enduser',
    role: 'EndUser',
    tenant: DEMO.contoso,
    subscription: DEMO.contosoProduction,
    allTenants: false,
    groups: [],
  },
  {
    userName: 'operator2',
    displayName: 'Olivia Operator',
    role: 'Operator',
    tenant: DEMO.fabrikam,
    subscription: DEMO.fabrikamProduction,
    allTenants: false,
    groups: ['Operations'],
  },
] as const;

/**
 * Base roles and the areas' installation rows on every start (their permission lists follow the code); demo tenants, users and
 * work units on the first start of a database that has no tenants. Several instances may start at once:
 * an advisory lock lets one of them seed.
 */
export async function seed(db: Db, options: { demo: boolean; localUsers: boolean; files?: FileStore }): Promise<void> {
  // The demo rows' files on every start: a test or an instance copying a seeded database may have a file store of its own.
  const { files } = options;
  if (options.demo && files) for (const area of AREA_MANIFESTS) await area.demoFiles?.(db, files);
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(4242001)`.execute(trx);
    for (const [name, role] of Object.entries(BASE_ROLES)) {
      const { role_id } = await trx
        .insertInto('app_role')
        .values({ name, description: role.description })
        .onConflict((oc) => oc.column('name').doUpdateSet({ description: role.description }))
        .returning('role_id')
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('role_permission').where('role_id', '=', role_id).execute();
      await trx
        .insertInto('role_permission')
        .values(role.permissions.map((permission) => ({ role_id, permission })))
        .execute();
    }

    for (const area of AREA_MANIFESTS) await area.installationSeed?.(trx);

    const { count } = await trx
      .selectFrom('tenant')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (!options.demo || count > 0) return;

    await trx
      .insertInto('tenant')
      .values([
        {
          tenant_id: DEMO.contoso,
          name: 'Contoso',
          internal_notification_email_address: 'noc@contoso.example',
          assignment_groups: 'Service Desk,Network,Database',
          ...DEMO_CUSTOM_FIELDS[DEMO.contoso],
          intake_wizard_schema: JSON.stringify(DEMO_INTAKE_SCHEMA, null, 2),
          created_by: 'seed',
          modified_by: 'seed',
        },
        {
          tenant_id: DEMO.fabrikam,
          name: 'Fabrikam',
          internal_notification_email_address: 'ops@fabrikam.example',
          assignment_groups: 'Operations,Security',
          ...DEMO_CUSTOM_FIELDS[DEMO.fabrikam],
          created_by: 'seed',
          modified_by: 'seed',
        },
      ])
      .execute();
    await trx
      .insertInto('subscription')
      .values([
        {
          subscription_id: DEMO.contosoProduction,
          tenant_id: DEMO.contoso,
          name: 'Contoso Production',
          created_by: 'seed',
          modified_by: 'seed',
        },
        {
          subscription_id: DEMO.contosoStaging,
          tenant_id: DEMO.contoso,
          name: 'Contoso Staging',
          created_by: 'seed',
          modified_by: 'seed',
        },
        {
          subscription_id: DEMO.fabrikamProduction,
          tenant_id: DEMO.fabrikam,
          name: 'Fabrikam Production',
          created_by: 'seed',
          modified_by: 'seed',
        },
        {
          subscription_id: DEMO.fabrikamLab,
          tenant_id: DEMO.fabrikam,
          name: 'Fabrikam Lab',
          created_by: 'seed',
          modified_by: 'seed',
        },
      ])
      .execute();

    const roles = await trx.selectFrom('app_role').select(['role_id', 'name']).execute();
    // With an external identity provider, people arrive from it; local demo accounts could never sign in.
    for (const user of options.localUsers ? DEMO_USERS : []) {
      const { user_id } = await trx
        .insertInto('app_user')
        .values({
          user_name: user.userName,
          display_name: user.displayName,
          email: `${user.userName}@cfs.example`,
          // Demo passwords equal the user names; the embedded sign-in page says so in demo mode.
          password_hash: await hashPassword(user.userName),
          all_tenants: user.allTenants,
          tenant_id: user.tenant,
          subscription_id: user.subscription,
          // Names from their tenant's assignment groups, so "My groups" finds the demo units.
          assignment_groups: [...user.groups],
        })
        .returning('user_id')
        .executeTakeFirstOrThrow();
      const role = roles.find((r) => r.name === user.role);
      if (!role) throw new Error(`Seed role ${user.role} is missing`);
      await trx.insertInto('user_role').values({ user_id, role_id: role.role_id }).execute();
      if (!user.allTenants) await trx.insertInto('user_tenant').values({ user_id, tenant_id: user.tenant }).execute();
    }

    await trx
      .insertInto('directory_group')
      .values([
        { display_name: 'Contoso Service Desk', mail: 'servicedesk@contoso.example', tenant_id: DEMO.contoso },
        { display_name: 'Contoso Network Team', mail: 'network@contoso.example', tenant_id: DEMO.contoso },
        { display_name: 'Fabrikam Operations', mail: 'operations@fabrikam.example', tenant_id: DEMO.fabrikam },
      ])
      .execute();
    // Categories and subcategories as a service desk would set them up (Service and Need in the Resolution Center).
    for (const [tenantId, categories] of Object.entries(DEMO_CATEGORIES)) {
      for (const category of categories) {
        const { work_unit_category_id } = await trx
          .insertInto('work_unit_category')
          .values({
            tenant_id: tenantId,
            name: category.name,
            work_unit_type_id: category.type,
            is_visible_in_resolution_center: category.visible,
            created_by: 'seed',
            modified_by: 'seed',
          })
          .returning('work_unit_category_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('work_unit_subcategory')
          .values(
            category.subcategories.map((name) => ({
              work_unit_category_id,
              name,
              created_by: 'seed',
              modified_by: 'seed',
            })),
          )
          .execute();
      }
    }
    await seedDemoWorkUnits(trx, [
      {
        tenantId: DEMO.contoso,
        groups: ['Service Desk', 'Network', 'Database'],
        staff: 'operator@cfs.example',
        customValues: (n) => ({
          custom_value_1: ['Retail', 'Wholesale', 'Corporate'][n % 3] ?? null,
          custom_value_3: `CT-${String(1000 + n)}`,
        }),
      },
      {
        tenantId: DEMO.fabrikam,
        groups: ['Operations', 'Security'],
        staff: 'operator2@cfs.example',
        customValues: (n) => ({
          custom_value_1: ['Redmond', 'Tacoma', 'Dublin'][n % 3] ?? null,
          custom_value_2: `Line ${(n % 4) + 1}`,
        }),
      },
    ]);
    for (const area of AREA_MANIFESTS) await area.demoSeed?.(trx);
  });
}
