/** What the audit log keeps of an erased account, in place of its e-mail and label. */
export const ERASED_LABEL = 'Deleted account';

/** SQL expressions: an account being erased (its id and address) and the markers that stand for it in the log. */
export interface ErasedAccountSql {
  userId: string;
  email: string;
  deletionId: string;
  label: string;
}

/**
 * The erased account's address names them only while no other account holds it: while the other parts run, a coach's
 * resend of the person's lead makes a new account under it, whose entries are that person's own.
 */
const addressStillTheirs = (erased: ErasedAccountSql) =>
  `NOT EXISTS (SELECT 1 FROM auth.users AS holder WHERE holder.email = ${erased.email} AND holder.id <> ${erased.userId})`;

/**
 * An audit entry's actor (its id and e-mail, SQL expressions) with an erased account replaced by its deletion's
 * markers. The actor is theirs when its id or its e-mail is theirs. The audit log's trigger allows an update only to
 * exactly these values (the `audit-erasure-bound` migration).
 */
export const erasedActorSql = (actor: { id: string; email: string }, erased: ErasedAccountSql) => {
  const byId = `${actor.id} = ${erased.userId}`;
  const theirs = `(${byId} OR (${actor.email} = ${erased.email} AND ${addressStillTheirs(erased)}))`;
  return {
    byId,
    matches: theirs,
    id: `CASE WHEN ${byId} THEN ${erased.deletionId} ELSE ${actor.id} END`,
    email: `CASE WHEN ${theirs} THEN ${erased.label} ELSE ${actor.email} END`,
  };
};

/**
 * An audit entry's target (its id and label, SQL expressions) with an erased account replaced by its deletion's
 * markers. A label names a person only as their whole address (a lead's, investor's, user's or client's e-mail; the
 * other labels are campaign subjects): a search inside labels would also erase `joann@…` for `ann@…`. Addresses are
 * stored in lower case, labels as the answer gave them.
 */
export const erasedTargetSql = (target: { id: string; label: string }, erased: ErasedAccountSql) => {
  const byId = `${target.id} = (${erased.userId})::text`;
  const byLabel = `(lower(${target.label}) = ${erased.email} AND ${addressStillTheirs(erased)})`;
  return {
    byId,
    matches: `(${byId} OR ${byLabel})`,
    id: `CASE WHEN ${byId} THEN (${erased.deletionId})::text ELSE ${target.id} END`,
    label: `CASE WHEN ${byId} OR ${byLabel} THEN ${erased.label} ELSE ${target.label} END`,
  };
};
