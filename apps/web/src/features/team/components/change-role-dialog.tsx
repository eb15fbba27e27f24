import type { AuthUser, UserRole } from '@spark/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { toast } from '../../../ui/toaster';
import { teamApi, teamKeys } from '../api/team-api';
import { displayName, roleNames, roleRights } from './roles';
import { ErrorText } from '../../../ui/error-text';

interface ChangeRoleDialogProps {
  member: AuthUser;
  role: UserRole;
  isSelf: boolean;
  onClose: () => void;
  /** After one's own role changed: that session has ended. */
  onOwnRoleChanged: () => Promise<void>;
}

/** The confirm step of a role change: who, which role, what it allows, and that their sessions end. */
export function ChangeRoleDialog({ member, role, isSelf, onClose, onOwnRoleChanged }: ChangeRoleDialogProps) {
  const queryClient = useQueryClient();
  const who = displayName(member);
  const change = useMutation({
    mutationFn: () => teamApi.setRole(member.id, { role }),
    onSuccess: async () => {
      toast.success(`${who} is now ${roleNames[role].withArticle}`);
      onClose();
      if (isSelf) await onOwnRoleChanged();
      else await queryClient.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
  const failure = change.error instanceof ApiError && change.error.status < 500 ? change.error.message : 'The role was not changed. Please try again.';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Change role">
      <div className="space-y-4">
        <p className="text-slate-700">
          Make <strong className="text-ink-950">{who}</strong>
          {who !== member.email && <span className="wrap-anywhere"> ({member.email})</span>}{' '}
          <strong className="text-ink-950">{roleNames[role].withArticle}</strong>?
        </p>
        <p className="rounded-xl bg-slate-50 p-3 text-sm text-slate-700">{roleRights[role]}</p>
        <p className="text-sm text-slate-600">
          {isSelf
            ? 'You will be signed out and sign in again with your new role.'
            : 'They will be signed out on every device and sign in again with the new role.'}
        </p>
        {change.isError && <ErrorText>{failure}</ErrorText>}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button onClick={() => change.mutate()} disabled={change.isPending}>
            {change.isPending ? 'Changing...' : `Make ${roleNames[role].label.toLowerCase()}`}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
