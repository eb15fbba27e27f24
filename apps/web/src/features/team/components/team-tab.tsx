import { type AuthUser, type UserRole, userRoles } from '@spark/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { ListEmpty, ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { formatDateTime } from '../../coach/api/coach-api';
import { useSession } from '../../session';
import { type RoleFilter, teamApi, teamKeys } from '../api/team-api';
import { ChangeRoleDialog } from './change-role-dialog';
import { displayName, roleNames } from './roles';

const filters: { value: RoleFilter; label: string }[] = [
  { value: 'all', label: 'Everyone' },
  { value: 'admin', label: 'Admins' },
  { value: 'coach', label: 'Coaches' },
  { value: 'client', label: 'Clients' },
];

const badgeTone: Record<UserRole, string> = {
  admin: 'bg-ink-950 text-white',
  coach: 'bg-spark-100 text-spark-800',
  client: 'bg-slate-100 text-slate-700',
};

function MemberRow({ member, isSelf, onChoose }: { member: AuthUser; isSelf: boolean; onChoose: (role: UserRole) => void }) {
  const selectId = useId();
  const role = member.user_metadata.role;
  const name = member.user_metadata.full_name;
  return (
    <li className="flex flex-col gap-3 border-b border-slate-100 p-4 last:border-0 sm:flex-row sm:items-center sm:justify-between" data-testid="team-member">
      <div className="flex min-w-0 items-center gap-3">
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ink-100 font-semibold text-ink-800 uppercase">
          {(name ?? member.email).charAt(0)}
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-semibold text-ink-950">{name ?? 'Name not set'}</p>
            <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeTone[role]}`} data-testid="role-badge">
              {roleNames[role].label}
            </span>
            {isSelf && <span className="inline-flex rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">You</span>}
          </div>
          <p className="truncate text-sm text-slate-600">{member.email}</p>
          <p className="text-xs text-slate-500">Joined: {formatDateTime(member.created_at)}</p>
        </div>
      </div>
      <div className="sm:w-40">
        <label htmlFor={selectId} className="sr-only">
          Role of {displayName(member)}
        </label>
        <Select id={selectId} value={role} onChange={(event) => onChoose(event.target.value as UserRole)}>
          {userRoles.map((option) => (
            <option key={option} value={option}>
              {roleNames[option].label}
            </option>
          ))}
        </Select>
      </div>
    </li>
  );
}

/** The admins' Team tab: everyone with an account and their role, and an explicit, confirmed role change. */
export default function TeamTab() {
  const { user: me, signOut } = useSession();
  const [filter, setFilter] = useState<RoleFilter>('all');
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const [change, setChange] = useState<{ member: AuthUser; role: UserRole } | null>(null);
  const members = useInfiniteQuery({
    queryKey: teamKeys.members(filter, settledSearch),
    queryFn: ({ pageParam }) => teamApi.members(filter, settledSearch, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card className="overflow-hidden p-0!">
      <div className="space-y-4 border-b border-slate-100 p-4">
        <div>
          <h2 className="text-lg font-semibold text-ink-950">Team &amp; Roles</h2>
          <p className="text-sm text-slate-600">Everyone with an account. A changed role takes effect at once: the person signs in again with it.</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div role="group" aria-label="Show" className="grid grid-cols-4 gap-1 rounded-xl bg-slate-100 p-1 sm:flex">
            {filters.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={filter === option.value}
                onClick={() => setFilter(option.value)}
                className="rounded-lg px-2 py-1.5 text-sm font-semibold whitespace-nowrap text-slate-600 transition aria-pressed:bg-white aria-pressed:text-ink-950 aria-pressed:shadow sm:px-3"
              >
                {option.label}
              </button>
            ))}
          </div>
          <Input
            type="search"
            placeholder="Search by e-mail"
            aria-label="Search by e-mail"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="sm:max-w-xs"
          />
        </div>
      </div>
      {members.isPending ? (
        <ListLoading />
      ) : members.isError ? (
        <ListFailed message="The team could not be loaded." onRetry={() => void members.refetch()} />
      ) : items.length === 0 ? (
        <ListEmpty title="No one found" hint="Try another role or the start of another e-mail address." />
      ) : (
        <ul>
          {items.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              isSelf={member.id === me?.id}
              onChoose={(role) => role !== member.user_metadata.role && setChange({ member, role })}
            />
          ))}
        </ul>
      )}
      <ListMore list={members} />
      {change && (
        <ChangeRoleDialog
          member={change.member}
          role={change.role}
          isSelf={change.member.id === me?.id}
          onClose={() => setChange(null)}
          onOwnRoleChanged={signOut}
        />
      )}
    </Card>
  );
}
