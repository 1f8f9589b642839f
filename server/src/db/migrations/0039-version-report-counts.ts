import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * The version report's summary strip and filter choices read counts kept by triggers, a row per
 * tenant and subscription (and package), instead of grouping the installations or the devices
 * of the caller's tenants on each call (spec 002 §7 Version report):
 *
 * - `version_report_device_count`: per tenant and subscription, the devices (not deleted, with a
 *   package installed) that run the Latest of at least one package (current), that run another
 *   version of at least one (outdated), and that run the Latest of every one (compliant). Kept
 *   from each device's own counts (`installed_packages`, `outdated_packages`, migration 0025),
 *   whenever they, its deletion, its tenant or its subscription change.
 * - `version_report_package_count`: per tenant, subscription and package, the installations
 *   on the Latest (or of a package that has none: Current) and on another version. Kept on each
 *   installation's change, moved with its device (deleted, restored, moved), and counted again
 *   for a package whose Latest changes.
 *
 * Each count is kept in eight slots (by a hash of the device), which readers add up: agents
 * reporting at once for one subscription and package then seldom wait on one another's row. A row
 * whose counts are all zero is removed, so that a filter's choices are what the report holds.
 *
 * An installation is written only after a share lock on its package's row (a BEFORE trigger, ahead
 * of the counting triggers of this migration and of 0025): an upload or deletion that changes the
 * package's Latest holds that row, so an installation written meanwhile is counted against the
 * Latest it leaves, not the one it replaces. The installation's counting trigger takes its
 * device's row lock too, so an installation written while its device moves is counted where the
 * device ends up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE version_report_device_count (
        tenant_id uuid NOT NULL,
        subscription_id uuid NOT NULL,
        slot smallint NOT NULL,
        current_devices integer NOT NULL DEFAULT 0,
        outdated_devices integer NOT NULL DEFAULT 0,
        compliant_devices integer NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, subscription_id, slot)
    )`,
    `CREATE TABLE version_report_package_count (
        tenant_id uuid NOT NULL,
        subscription_id uuid NOT NULL,
        package_id uuid NOT NULL,
        slot smallint NOT NULL,
        current_installs integer NOT NULL DEFAULT 0,
        outdated_installs integer NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, subscription_id, package_id, slot)
    )`,
    // A device's slot: the same for its devices' and its installations' counts.
    `CREATE FUNCTION version_report_slot(device uuid) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
        SELECT (abs(hashtext(device::text)) % 8)::smallint
    $$`,
    `CREATE INDEX version_report_package_count_package_idx ON version_report_package_count (package_id)`,
    declareTable('version_report_device_count', { owner: 'areas/versionreport', tenantColumn: 'tenant_id' }),
    declareTable('version_report_package_count', { owner: 'areas/versionreport', tenantColumn: 'tenant_id' }),
    `CREATE FUNCTION version_report_add_devices(tenant uuid, subscription uuid, device uuid, current integer, outdated integer, compliant integer)
        RETURNS void LANGUAGE sql AS $$
        INSERT INTO version_report_device_count AS c VALUES (tenant, subscription, version_report_slot(device), current, outdated, compliant)
        ON CONFLICT (tenant_id, subscription_id, slot) DO UPDATE SET current_devices = c.current_devices + current,
            outdated_devices = c.outdated_devices + outdated, compliant_devices = c.compliant_devices + compliant;
        DELETE FROM version_report_device_count WHERE tenant_id = tenant AND subscription_id = subscription
            AND slot = version_report_slot(device) AND current_devices = 0 AND outdated_devices = 0 AND compliant_devices = 0;
    $$`,
    `CREATE FUNCTION version_report_add_installs(tenant uuid, subscription uuid, package uuid, device uuid, current integer, outdated integer)
        RETURNS void LANGUAGE sql AS $$
        INSERT INTO version_report_package_count AS c VALUES (tenant, subscription, package, version_report_slot(device), current, outdated)
        ON CONFLICT (tenant_id, subscription_id, package_id, slot) DO UPDATE SET current_installs = c.current_installs + current,
            outdated_installs = c.outdated_installs + outdated;
        DELETE FROM version_report_package_count WHERE tenant_id = tenant AND subscription_id = subscription
            AND package_id = package AND slot = version_report_slot(device) AND current_installs = 0 AND outdated_installs = 0;
    $$`,
    // A device's installations, added (sign 1) or taken away (-1) where the device is counted.
    `CREATE FUNCTION version_report_move_installs(device uuid, tenant uuid, subscription uuid, sign integer)
        RETURNS void LANGUAGE sql AS $$
        SELECT version_report_add_installs(tenant, subscription, i.package_id, device, sign * (1 - i.outdated), sign * i.outdated)
        FROM (SELECT package_id, installation_outdated(package_id, installed_package_version_id) AS outdated
              FROM device_installation WHERE device_id = device AND installed_package_version_id IS NOT NULL) AS i;
    $$`,
    `CREATE FUNCTION device_version_report_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        was_counted boolean := TG_OP <> 'INSERT' AND NOT OLD.is_deleted;
        is_counted boolean := TG_OP <> 'DELETE' AND NOT NEW.is_deleted;
    BEGIN
        IF was_counted AND OLD.installed_packages > 0 THEN
            PERFORM version_report_add_devices(OLD.tenant_id, OLD.subscription_id, OLD.device_id,
                -(OLD.installed_packages > OLD.outdated_packages)::integer, -(OLD.outdated_packages > 0)::integer,
                -(OLD.outdated_packages = 0)::integer);
        END IF;
        IF is_counted AND NEW.installed_packages > 0 THEN
            PERFORM version_report_add_devices(NEW.tenant_id, NEW.subscription_id, NEW.device_id,
                (NEW.installed_packages > NEW.outdated_packages)::integer, (NEW.outdated_packages > 0)::integer,
                (NEW.outdated_packages = 0)::integer);
        END IF;
        IF TG_OP = 'UPDATE' AND (was_counted, OLD.tenant_id, OLD.subscription_id) IS DISTINCT FROM (is_counted, NEW.tenant_id, NEW.subscription_id) THEN
            IF was_counted THEN PERFORM version_report_move_installs(OLD.device_id, OLD.tenant_id, OLD.subscription_id, -1); END IF;
            IF is_counted THEN PERFORM version_report_move_installs(NEW.device_id, NEW.tenant_id, NEW.subscription_id, 1); END IF;
        END IF;
        RETURN NULL;
    END $$`,
    `CREATE TRIGGER device_version_report_counts AFTER INSERT OR DELETE ON device
        FOR EACH ROW EXECUTE FUNCTION device_version_report_counts()`,
    `CREATE TRIGGER device_version_report_counts_update AFTER UPDATE OF installed_packages, outdated_packages, is_deleted, tenant_id, subscription_id ON device
        FOR EACH ROW WHEN ((OLD.installed_packages, OLD.outdated_packages, OLD.is_deleted, OLD.tenant_id, OLD.subscription_id)
            IS DISTINCT FROM (NEW.installed_packages, NEW.outdated_packages, NEW.is_deleted, NEW.tenant_id, NEW.subscription_id))
        EXECUTE FUNCTION device_version_report_counts()`,
    `CREATE FUNCTION installation_package_share() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM 1 FROM package WHERE package_id = CASE WHEN TG_OP = 'DELETE' THEN OLD.package_id ELSE NEW.package_id END FOR SHARE;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$`,
    `CREATE TRIGGER installation_package_share BEFORE INSERT OR DELETE OR UPDATE OF installed_package_version_id, package_id ON device_installation
        FOR EACH ROW EXECUTE FUNCTION installation_package_share()`,
    `CREATE FUNCTION installation_version_report_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        d record;
        outdated integer;
    BEGIN
        IF TG_OP <> 'INSERT' AND OLD.installed_package_version_id IS NOT NULL THEN
            SELECT tenant_id, subscription_id INTO d FROM device WHERE device_id = OLD.device_id AND NOT is_deleted FOR SHARE;
            IF FOUND THEN
                outdated := installation_outdated(OLD.package_id, OLD.installed_package_version_id);
                PERFORM version_report_add_installs(d.tenant_id, d.subscription_id, OLD.package_id, OLD.device_id, outdated - 1, -outdated);
            END IF;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.installed_package_version_id IS NOT NULL THEN
            SELECT tenant_id, subscription_id INTO d FROM device WHERE device_id = NEW.device_id AND NOT is_deleted FOR SHARE;
            IF FOUND THEN
                outdated := installation_outdated(NEW.package_id, NEW.installed_package_version_id);
                PERFORM version_report_add_installs(d.tenant_id, d.subscription_id, NEW.package_id, NEW.device_id, 1 - outdated, outdated);
            END IF;
        END IF;
        RETURN NULL;
    END $$`,
    `CREATE TRIGGER installation_version_report_counts AFTER INSERT OR DELETE ON device_installation
        FOR EACH ROW EXECUTE FUNCTION installation_version_report_counts()`,
    `CREATE TRIGGER installation_version_report_counts_update AFTER UPDATE OF installed_package_version_id, device_id, package_id ON device_installation
        FOR EACH ROW WHEN ((OLD.installed_package_version_id, OLD.device_id, OLD.package_id)
            IS DISTINCT FROM (NEW.installed_package_version_id, NEW.device_id, NEW.package_id))
        EXECUTE FUNCTION installation_version_report_counts()`,
    // Everything counted again from the devices and installations (package: only that package's installations).
    `CREATE FUNCTION recount_version_report(package uuid DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        IF package IS NULL THEN
            DELETE FROM version_report_device_count;
            INSERT INTO version_report_device_count
                SELECT tenant_id, subscription_id, version_report_slot(device_id), count(*) FILTER (WHERE installed_packages > outdated_packages),
                       count(*) FILTER (WHERE outdated_packages > 0), count(*) FILTER (WHERE outdated_packages = 0)
                FROM device WHERE NOT is_deleted AND installed_packages > 0 GROUP BY 1, 2, 3;
            DELETE FROM version_report_package_count;
        ELSE
            DELETE FROM version_report_package_count c WHERE c.package_id = package;
        END IF;
        INSERT INTO version_report_package_count
            SELECT d.tenant_id, d.subscription_id, i.package_id, version_report_slot(d.device_id),
                   count(*) FILTER (WHERE i.outdated = 0), count(*) FILTER (WHERE i.outdated = 1)
            FROM (SELECT device_id, package_id, installation_outdated(package_id, installed_package_version_id) AS outdated
                  FROM device_installation di WHERE installed_package_version_id IS NOT NULL AND (package IS NULL OR di.package_id = package)) AS i
            JOIN device d ON d.device_id = i.device_id AND NOT d.is_deleted
            GROUP BY 1, 2, 3, 4;
    END $$`,
    // A package's Latest changes (an upload, a deletion): its installations are counted again.
    `CREATE FUNCTION package_version_report_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM recount_version_report(CASE WHEN TG_OP = 'DELETE' THEN OLD.package_id ELSE NEW.package_id END);
        RETURN NULL;
    END $$`,
    `CREATE TRIGGER package_version_report_counts_insert AFTER INSERT ON package_version
        FOR EACH ROW WHEN (NEW.package_version_status_id = 1) EXECUTE FUNCTION package_version_report_counts()`,
    `CREATE TRIGGER package_version_report_counts_delete AFTER DELETE ON package_version
        FOR EACH ROW WHEN (OLD.package_version_status_id = 1) EXECUTE FUNCTION package_version_report_counts()`,
    `CREATE TRIGGER package_version_report_counts_update AFTER UPDATE OF package_version_status_id ON package_version
        FOR EACH ROW WHEN ((OLD.package_version_status_id = 1) <> (NEW.package_version_status_id = 1))
        EXECUTE FUNCTION package_version_report_counts()`,
    `SELECT recount_version_report()`,
  ]);
}
