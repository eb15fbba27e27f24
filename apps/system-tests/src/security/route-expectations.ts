import type { RouteAccess } from '../../../gateway/src/main';

/** The five callers every route is tried as: nobody, the resource's owner, another client, a coach, an admin. */
export const identities = ['anonymous', 'client', 'otherClient', 'coach', 'admin'] as const;
export type Identity = (typeof identities)[number];

/**
 * What a caller gets: `ok` = let through (the route's own answer: 2xx, or 400/404/409/413/415/429 for what was
 * sent, never 401/403 and never 5xx), or an exact status.
 */
export type Cell = 'ok' | 401 | 403 | 404;

export interface RouteExpectation {
  /** Must equal what the route's decorators say; changing one without the other fails the build. */
  access: RouteAccess;
  /** Cells that differ from what `access` implies, e.g. another client's resource answering 404. */
  cells?: Partial<Record<Identity, Cell>>;
  /** Why the route needs its overrides or its openness. */
  why?: string;
  /** Ends every session of its caller, whose token then holds for no other route: tried after all of them. */
  endsCallersSessions?: true;
}

const ownerOnly = { otherClient: 404 } as const;
// What only a coached person does, and what would make anyone else a client in every coach's list.
const clients = ['client'] as const;
const coaches = ['coach', 'admin'] as const;
const admins = ['admin'] as const;

/**
 * The decision for every gateway route. A new route has no entry until someone decides who may call it,
 * and the matrix tests fail until then.
 */
export const routeExpectations: Record<string, RouteExpectation> = {
  'GET /health/live': { access: 'public' },
  'GET /health/ready': { access: 'public' },

  'POST /api/auth/magic-link': { access: 'public', why: 'answers the same 202 for every address' },
  'POST /api/auth/link-info': { access: 'public', why: "answers whose an open sign-in link is; the link's token is the credential" },
  'POST /api/auth/redeem': { access: 'public', why: 'spends a link or code; the secret is the credential' },
  'POST /api/auth/refresh': {
    access: 'public',
    why: 'the refresh cookie is the credential, not the access token: without the cookie every caller gets "no session" (null)',
  },
  'POST /api/auth/sign-out': { access: 'public', why: 'ends the session of the cookie it is sent with; always 204' },
  'POST /api/auth/sign-out-everywhere': { access: 'signed-in', why: "ends only the caller's own sessions", endsCallersSessions: true },
  'GET /api/auth/user': { access: 'signed-in' },
  'PATCH /api/auth/user': { access: 'signed-in', why: "changes only the caller's own record" },
  'GET /api/auth/users': { access: admins },

  'POST /api/leads': { access: 'public', why: 'the interest form' },
  'PATCH /api/leads/challenge': { access: 'public', why: 'authorised by the lead-scoped challenge token in the body' },

  'GET /api/coach/overview': { access: coaches },
  'GET /api/coach/leads': { access: coaches },
  'POST /api/coach/leads': { access: coaches },
  'POST /api/coach/leads/:leadId/approve': { access: coaches },
  'POST /api/coach/leads/:leadId/resend': { access: coaches },
  'POST /api/coach/leads/:leadId/reject': { access: coaches },
  'GET /api/coach/clients': { access: coaches },
  'GET /api/coach/clients/:userId': { access: coaches },
  'PATCH /api/coach/clients/:userId': { access: coaches },
  'PUT /api/coach/clients/:userId/pause-allowance': { access: coaches },
  'POST /api/coach/clients/:userId/export': { access: admins, why: "queues the client's data export; the link goes to the client's own e-mail" },
  'GET /api/coach/clients/:userId/ditl': { access: coaches },
  'POST /api/coach/clients/:userId/ditl/generations': { access: coaches },
  'PUT /api/coach/clients/:userId/ditl/moments/:moment': { access: coaches },
  'DELETE /api/coach/clients/:userId/ditl/moments/:moment': { access: coaches },
  'GET /api/coach/clients/:userId/nudge-draft': { access: coaches, why: 'a draft only: sending it is the notes route' },
  'GET /api/coach/clients/:userId/weekly-check-in': { access: coaches },

  'POST /api/onboarding': { access: clients, why: "writes the caller's own onboarding; staff are not coached" },
  'POST /api/ditl/generations': { access: clients, why: "queues the caller's own presentation; staff have none" },
  'GET /api/ditl/generations/current': { access: 'signed-in', why: "answers the caller's own newest presentation" },
  'GET /api/ditl/generations/:generationId': { access: 'signed-in', cells: ownerOnly, why: 'a client reads only its own generations' },
  'GET /api/ditl/generations/:generationId/presentation': { access: 'signed-in', cells: ownerOnly, why: 'a client reads only its own presentation' },

  'GET /api/progress/me': { access: 'signed-in' },
  'PUT /api/progress/me/rest-day': { access: 'signed-in', why: "sets the caller's own rest day" },
  'POST /api/progress/me/pause-days': { access: 'signed-in', why: "marks the caller's own pause day" },
  'POST /api/progress/me/export': { access: 'signed-in', why: "queues the caller's own data export, mailed to the caller's own address" },
  'GET /api/progress/me/exports/:exportId': { access: 'signed-in', why: "the caller's own export only: another's id is not found" },
  'GET /api/progress/clients/:userId': { access: coaches },
  'GET /api/progress/clients/:userId/sparks': { access: coaches },
  'POST /api/progress/clients/:userId/notes': { access: coaches },
  'POST /api/progress/clients/:userId/private-notes': { access: coaches },
  'GET /api/progress/clients/:userId/private-notes': { access: coaches },
  'POST /api/sparks/uploads': { access: clients, why: "grants an upload under the caller's own prefix only" },
  'POST /api/sparks': { access: clients, why: "captures into the caller's own progress, from the caller's own upload" },
  'GET /api/sparks': { access: 'signed-in', why: "lists the caller's own sparks" },
  'GET /api/sparks/:id': { access: 'signed-in', cells: ownerOnly, why: 'a client reads only its own sparks' },

  'GET /api/investors/donate-page': { access: 'public' },
  'GET /api/investors/deck/preview': { access: 'public' },
  'POST /api/investors/deck-requests': { access: 'public' },
  'POST /api/investors/early-access': { access: 'public' },
  'POST /api/investors/deck-download': {
    access: 'public',
    cells: { anonymous: 403, client: 403, otherClient: 403, coach: 403, admin: 403 },
    why: 'the access code is the credential, whoever is signed in: without a valid one every caller gets 403 "Access Denied"',
  },
  'GET /api/investors': { access: admins },
  'POST /api/investors': { access: admins },
  'POST /api/investors/:id/access-code': { access: admins },
  'POST /api/investors/:id/access-code/reissue': { access: admins },
  'POST /api/investors/emails': { access: admins },
  'GET /api/investors/emails/:campaignId': { access: admins },
  'PUT /api/investors/deck/:file': { access: admins },

  'PATCH /api/admin/users/:userId/role': { access: admins, why: 'the only way a role changes; ends every session of the user' },
  'GET /api/admin/audit': { access: admins, why: 'who did what to whom: for admins only' },
  'GET /api/admin/account-deletions': { access: admins, why: 'deletion records: when, and which parts are erased, never whose account' },
  'POST /api/me/account-deletion': {
    access: 'signed-in',
    cells: { coach: 403, admin: 403 },
    why: "e-mails the caller's own address a link that confirms deleting the caller's own account; only a client account is deleted this way",
  },
  'GET /api/progress/me/reminders': { access: 'signed-in', why: "the caller's own reminder settings" },
  'PUT /api/progress/me/reminders': { access: 'signed-in', why: "the caller's own reminder settings" },
  'PUT /api/progress/me/push-subscription': { access: 'signed-in', why: "the caller's own device; the endpoint must be at a known push service" },
  'GET /api/reminders/push-config': { access: 'public', why: 'the VAPID public key, public by design' },
  'POST /api/reminders/unsubscribe': {
    access: 'public',
    why: "the e-mail's one-click unsubscribe; the random token in the address is the credential and only turns reminders off",
  },
  'POST /api/account-deletion/confirm': {
    access: 'public',
    why: "spends the e-mailed link's token; the token is the credential (the link may open on another device)",
  },
  'POST /api/admin/queue-board/tickets': {
    access: admins,
    why: 'opens the queue dashboard (/admin/queues, Bull Board on Fastify directly, outside this matrix: its own pass cookie, checked per request)',
  },

  'GET /api/log/posts': { access: 'public' },
  'GET /api/log/posts/:slug': { access: 'public' },
  'GET /api/log/images/:owner/:file': { access: 'public', why: 'only images a published post shows are served' },
  'POST /api/log/images': { access: admins },
  'POST /api/log/posts': { access: admins },
};

/** The cell a caller should see, from the route's access and its overrides. */
export function expectedCell(expectation: RouteExpectation, identity: Identity): Cell {
  const override = expectation.cells?.[identity];
  if (override !== undefined) return override;
  const { access } = expectation;
  if (access === 'public') return 'ok';
  if (identity === 'anonymous') return 401;
  if (access === 'signed-in') return 'ok';
  const role = identity === 'otherClient' ? 'client' : identity;
  return access.includes(role) ? 'ok' : 403;
}

const cellText = (cell: Cell) => (cell === 'ok' ? '✓' : String(cell));
const accessText = (access: RouteAccess) => (typeof access === 'string' ? access : access.join(', '));

/** The matrix as the Markdown table docs/security.md carries. */
export function renderRouteMatrix(): string {
  const header = ['route', 'access', 'anonymous', 'client (owner)', 'other client', 'coach', 'admin'];
  const rows = Object.entries(routeExpectations)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, expectation]) => [
      `\`${route}\``,
      accessText(expectation.access),
      ...identities.map((identity) => cellText(expectedCell(expectation, identity))),
    ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
