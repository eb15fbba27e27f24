import type { AuthUser, UserRole } from '@spark/contracts';

export const roleNames: Record<UserRole, { label: string; withArticle: string }> = {
  client: { label: 'Client', withArticle: 'a client' },
  coach: { label: 'Coach', withArticle: 'a coach' },
  admin: { label: 'Admin', withArticle: 'an admin' },
};

/** What the role lets a person do, said before an admin gives it. */
export const roleRights: Record<UserRole, string> = {
  client: 'Clients use the Spark app for their own sparks and progress; they cannot open the coach dashboard.',
  coach: "Coaches open the coach dashboard: they review leads and see every client's sparks, notes and progress.",
  admin: 'Admins can do everything a coach can, and also manage investors, the Developer’s Log and everyone’s role.',
};

export const displayName = (member: AuthUser) => member.user_metadata.full_name ?? member.email;
