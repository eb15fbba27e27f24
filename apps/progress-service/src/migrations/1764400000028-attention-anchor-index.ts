import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Active clients by the day their idle days count from: the attention sort reads its first candidates here. */
export class AttentionAnchorIndex1764400000028 implements MigrationInterface {
  name = 'AttentionAnchorIndex1764400000028';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX user_progress_attention_anchor_idx ON progress.user_progress ((coalesce(last_spark_date, evolution_start_date)), user_id) WHERE status = 'active'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX progress.user_progress_attention_anchor_idx`);
  }
}
