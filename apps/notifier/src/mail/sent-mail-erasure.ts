import type { AccountEraser } from '@spark/service-runtime';
import type { DataSource } from 'typeorm';

/** What a ledger row names as its recipient once the address was erased. */
export const ERASED_RECIPIENT = 'erased';

/** How an erased address is kept: hashed, never as written. */
export const addressHashSql = (parameter: string) => `sha256(convert_to(lower(${parameter}), 'UTF8'))`;

// Longer than a queued e-mail waits: all its retries, and a notifier down for days.
const ERASED_KEPT = "interval '30 days'";

/**
 * The e-mail ledger keeps its rows (they stop a redelivered job from sending twice) but forgets the address:
 * the recipient becomes a placeholder and an SMTP error, which can quote the address, is dropped. The hashes of the
 * address and of the account's id are noted with the time, so an e-mail queued for the address (`MailProcessor`), or
 * a push queued for the account's device (`startPushSender`), before then is not sent after: a push job names its
 * account, not an address. A lead waiting for the team's hourly digest (`LeadAlertCap`) keeps its decision, not the
 * address.
 */
export const sentMailEraser = (dataSource: Pick<DataSource, 'query'>): AccountEraser => ({
  async erase({ userId, email }) {
    // Held until the erasure commits, so a claim or a failure written meanwhile waits, then sees the note and the
    // anonymised row, rather than writing the address beside an erasure that did not see it. The erase job runs in a
    // transaction (`startAccountErasure`).
    await dataSource.query(`LOCK TABLE notifier.sent_emails IN SHARE ROW EXCLUSIVE MODE`);
    await dataSource.query(`UPDATE notifier.sent_emails SET recipient = $2, error = NULL WHERE recipient = $1`, [email, ERASED_RECIPIENT]);
    // A lead past the hour's cap on the team's alerts, waiting for the digest to name it; one whose decision commits
    // after this is left out of the digest by the note below, and its address goes with the digest or the decision.
    await dataSource.query(`UPDATE notifier.lead_alert_decisions SET email = NULL WHERE lower(email) = lower($1) AND email IS NOT NULL`, [email]);
    await dataSource.query(
      `WITH pruned AS (DELETE FROM notifier.erased_recipients WHERE erased_at < now() - ${ERASED_KEPT})
       INSERT INTO notifier.erased_recipients (address_hash, erased_at) VALUES (${addressHashSql('$1')}, now()), (${addressHashSql('$2')}, now())
       ON CONFLICT (address_hash) DO UPDATE SET erased_at = now()`,
      [email, userId],
    );
  },
});
