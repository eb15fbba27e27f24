import type { AuditAction, AuditEvent } from '@spark/contracts';

/** How the log reads each action; a new action does not compile until it has its words here. */
export const actionLabels: Record<AuditAction, string> = {
  'lead.approve': 'Approved a lead',
  'lead.reject': 'Rejected a lead',
  'lead.resend': 'Resent a magic link',
  'lead.add-client': 'Added a client lead',
  'client.update': 'Updated a client record',
  'client.private-note': 'Added a private note',
  'client.pause-allowance': 'Changed pause days allowed',
  'client.data-export': 'Sent a data export',
  'client.nudge': 'Sent a nudge',
  'client.ditl-regenerate': 'Regenerated a Day in the Life',
  'client.ditl-edit': 'Edited a Day in the Life moment',
  'client.ditl-reset': 'Reset a Day in the Life moment',
  'user.role-change': 'Changed a role',
  'investor.add': 'Added an investor',
  'investor.code-issue': 'Generated an access code',
  'investor.code-reissue': 'Reissued an access code',
  'investor.campaign-send': 'Sent an investor e-mail',
  'investor.deck-upload': 'Uploaded the deck',
  'devlog.publish': 'Published a log post',
  'queues.open': 'Opened the queue dashboard',
};

const targetTypeLabels: Record<AuditEvent['target']['type'], string> = {
  lead: 'Lead',
  client: 'Client',
  user: 'User',
  investor: 'Investor',
  campaign: 'Campaign',
  deck: 'Deck',
  post: 'Post',
  'queue-board': 'Queue dashboard',
};

// Details hold short facts the gateway copied from the request: a status, a pin, a role.
const detailLabels: Record<string, string> = { status: 'Status', customEvolutionDays: 'Evolution days', isPinned: 'Pinned', role: 'Role' };
const detailValue = (value: string | number | boolean | null) => (value === null ? 'default' : value === true ? 'yes' : value === false ? 'no' : String(value));

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** One row: what was done, to which target, by whom, when and from where. */
export function AuditEventItem({ event }: { event: AuditEvent }) {
  const refused = event.outcome === 'refused';
  const details = Object.entries(event.details);
  return (
    <li className="grid gap-1 border-t border-slate-100 px-4 py-3 sm:grid-cols-[10rem_1fr_14rem] sm:gap-4" data-testid="audit-event">
      <time dateTime={event.at} className="text-xs text-slate-500 sm:pt-0.5">
        {when(event.at)}
      </time>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-ink-950">{actionLabels[event.action]}</span>
          {refused && <span className="rounded-full bg-rose-100 px-2 py-0.5 text-xs font-semibold text-rose-800">Refused</span>}
        </p>
        <p className="truncate text-sm text-slate-600">
          <span className="text-slate-500">{targetTypeLabels[event.target.type]}: </span>
          <span>{event.target.label ?? event.target.id ?? 'unknown'}</span>
        </p>
        {details.length > 0 && (
          <p className="text-xs text-slate-500">{details.map(([key, value]) => `${detailLabels[key] ?? key}: ${detailValue(value)}`).join(' · ')}</p>
        )}
      </div>
      <div className="min-w-0 text-sm sm:text-right">
        <p className="break-all text-ink-900">{event.actor.email}</p>
        <p className="text-xs text-slate-500">
          {event.actor.role} · {event.clientIp}
        </p>
      </div>
    </li>
  );
}
