import { serviceRoleOf } from '@spark/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth-service's role adds to the audit log and, for an unfinished deletion, relabels its entries (the trigger
 * bounds that); it never deletes from it, whatever the trigger would say.
 */
export class AuditEventsNotDeletable1764700000100 implements MigrationInterface {
  name = 'AuditEventsNotDeletable1764700000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`REVOKE DELETE, TRUNCATE ON auth.audit_events FROM "${serviceRoleOf('auth')}"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`GRANT DELETE ON auth.audit_events TO "${serviceRoleOf('auth')}"`);
  }
}
