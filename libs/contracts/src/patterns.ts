import { z } from 'zod';
import {
  authUserSchema,
  clientRecipientRequestSchema,
  clientRecipientSchema,
  getUserRequestSchema,
  inviteRequestSchema,
  inviteResponseSchema,
  issuedSessionSchema,
  linkInfoRequestSchema,
  linkInfoResponseSchema,
  listUsersRequestSchema,
  magicLinkRequestSchema,
  magicLinkResponseSchema,
  redeemRequestSchema,
  refreshRequestSchema,
  setRoleRequestSchema,
  signOutResponseSchema,
  signOutEverywhereRequestSchema,
  signOutEverywhereResponseSchema,
  updateUserBusRequestSchema,
  userPageSchema,
} from './auth';
import { coachingDraftRequestSchema, nudgeDraftSchema, weeklyCheckInSchema } from './coaching';
import { restDaysSchema, setPauseAllowanceRequestSchema, setRestDayRequestSchema, takePauseDayRequestSchema } from './rest-days';
import {
  checkDitlStatusRequestSchema,
  coachDitlRequestSchema,
  coachDitlViewSchema,
  coachRegenerateDitlRequestSchema,
  currentDitlRequestSchema,
  currentDitlResponseSchema,
  editDitlMomentRequestSchema,
  resetDitlMomentRequestSchema,
  ditlPresentationResponseSchema,
  ditlStatusResponseSchema,
  generateDitlRequestSchema,
  generateDitlResponseSchema,
} from './ditl';
import {
  addClientLeadRequestSchema,
  addClientLeadResponseSchema,
  clientCountRequestSchema,
  clientCountResponseSchema,
  clientDetailSchema,
  clientPageSchema,
  clientRequestSchema,
  clientSummarySchema,
  leadActionRequestSchema,
  leadCountersRequestSchema,
  leadCountersSchema,
  leadInviteRequestSchema,
  leadInviteResponseSchema,
  leadPageSchema,
  listClientsRequestSchema,
  listLeadsRequestSchema,
  presetEvolutionRequestSchema,
  presetEvolutionResponseSchema,
  updateClientRequestSchema,
} from './coach';
import { completeOnboardingRequestSchema, completeOnboardingResponseSchema } from './onboarding';
import {
  addCoachNoteRequestSchema,
  addPrivateNoteRequestSchema,
  coachNoteSchema,
  getSparkRequestSchema,
  grantSparkUploadRequestSchema,
  homeRequestSchema,
  homeResponseSchema,
  listPrivateNotesRequestSchema,
  listSparksRequestSchema,
  privateNotePageSchema,
  privateNoteSchema,
  recordSparkRequestSchema,
  recordSparkResponseSchema,
  sparkPageSchema,
  sparkSchema,
  sparkUploadGrantSchema,
} from './progress';
import {
  checkLogImageRequestSchema,
  checkLogImageResponseSchema,
  getPostRequestSchema,
  listPostsRequestSchema,
  logPostPageSchema,
  logPostSchema,
  publishPostBusRequestSchema,
  publishPostResponseSchema,
} from './dev-log';
import {
  deckDownloadRequestSchema,
  generateAccessCodeRequestSchema,
  generateAccessCodeResponseSchema,
  getCampaignRequestSchema,
  investorCampaignSchema,
  investorPageSchema,
  investorSchema,
  listInvestorsRequestSchema,
  redeemAccessCodeResponseSchema,
  registerInvestorRequestSchema,
  registerInvestorResponseSchema,
  sendInvestorEmailCommandSchema,
} from './investors';
import { auditEventPageSchema, auditEventSchema, listAuditEventsRequestSchema, recordAuditEventResponseSchema } from './audit';
import {
  exportedDitlRequestSchema,
  exportedDitlSchema,
  exportedInvestorSchema,
  exportedLeadSchema,
  exportedPartRequestSchema,
  exportStatusSchema,
  getExportRequestSchema,
  requestExportRequestSchema,
  requestExportResponseSchema,
} from './data-export';
import {
  accountDeletionPageSchema,
  confirmAccountDeletionBodySchema,
  confirmAccountDeletionResponseSchema,
  deletionPartDoneRequestSchema,
  deletionSubjectRequestSchema,
  deletionSubjectSchema,
  listAccountDeletionsRequestSchema,
  requestAccountDeletionRequestSchema,
  requestAccountDeletionResponseSchema,
} from './account-deletion';
import {
  getRemindersRequestSchema,
  pushSubscriptionGoneRequestSchema,
  pushSubscriptionGoneResponseSchema,
  reminderSettingsSchema,
  setPushSubscriptionRequestSchema,
  setRemindersRequestSchema,
  unsubscribeRemindersRequestSchema,
  unsubscribeRemindersResponseSchema,
} from './reminders';
import { createLeadCommandSchema, createLeadResponseSchema, leadSchema, setChallengeRequestSchema } from './leads';

/**
 * Every request/reply pattern on the service bus: `<service>.<action>` → request and response
 * schemas. The part before the dot names the service whose stream receives the request.
 * A shipped pattern is never renamed.
 */
export const patterns = {
  'leads.create': { request: createLeadCommandSchema, response: createLeadResponseSchema },
  'leads.set-challenge': { request: setChallengeRequestSchema, response: leadSchema },
  'auth.magic-link': { request: magicLinkRequestSchema, response: magicLinkResponseSchema },
  'auth.redeem': { request: redeemRequestSchema, response: issuedSessionSchema },
  'auth.link-info': { request: linkInfoRequestSchema, response: linkInfoResponseSchema },
  'auth.refresh': { request: refreshRequestSchema, response: issuedSessionSchema },
  'auth.sign-out': { request: refreshRequestSchema, response: signOutResponseSchema },
  'auth.sign-out-everywhere': { request: signOutEverywhereRequestSchema, response: signOutEverywhereResponseSchema },
  'auth.get-user': { request: getUserRequestSchema, response: authUserSchema },
  'auth.update-user': { request: updateUserBusRequestSchema, response: authUserSchema },
  'auth.list-users': { request: listUsersRequestSchema, response: userPageSchema },
  'auth.invite': { request: inviteRequestSchema, response: inviteResponseSchema },
  'auth.set-role': { request: setRoleRequestSchema, response: authUserSchema },
  'auth.export-account': { request: exportedPartRequestSchema, response: authUserSchema },
  'auth.client-recipient': { request: clientRecipientRequestSchema, response: clientRecipientSchema },
  'progress.complete-onboarding': { request: completeOnboardingRequestSchema, response: completeOnboardingResponseSchema },
  'ditl.generate': { request: generateDitlRequestSchema, response: generateDitlResponseSchema },
  'ditl.check-status': { request: checkDitlStatusRequestSchema, response: ditlStatusResponseSchema },
  'ditl.get-presentation': { request: checkDitlStatusRequestSchema, response: ditlPresentationResponseSchema },
  'ditl.current': { request: currentDitlRequestSchema, response: currentDitlResponseSchema },
  'ditl.coach-view': { request: coachDitlRequestSchema, response: coachDitlViewSchema },
  'ditl.coach-regenerate': { request: coachRegenerateDitlRequestSchema, response: generateDitlResponseSchema },
  'ditl.coach-edit-moment': { request: editDitlMomentRequestSchema, response: coachDitlViewSchema },
  'ditl.coach-reset-moment': { request: resetDitlMomentRequestSchema, response: coachDitlViewSchema },
  'ditl.export-presentation': { request: exportedDitlRequestSchema, response: exportedDitlSchema },
  'progress.grant-spark-upload': { request: grantSparkUploadRequestSchema, response: sparkUploadGrantSchema },
  'progress.record-spark': { request: recordSparkRequestSchema, response: recordSparkResponseSchema },
  'progress.request-export': { request: requestExportRequestSchema, response: requestExportResponseSchema },
  'progress.get-export': { request: getExportRequestSchema, response: exportStatusSchema },
  'progress.get-home': { request: homeRequestSchema, response: homeResponseSchema },
  'progress.set-rest-day': { request: setRestDayRequestSchema, response: restDaysSchema },
  'progress.take-pause-day': { request: takePauseDayRequestSchema, response: restDaysSchema },
  'progress.set-pause-allowance': { request: setPauseAllowanceRequestSchema, response: restDaysSchema },
  'progress.list-sparks': { request: listSparksRequestSchema, response: sparkPageSchema },
  'progress.get-spark': { request: getSparkRequestSchema, response: sparkSchema },
  'progress.add-coach-note': { request: addCoachNoteRequestSchema, response: coachNoteSchema },
  'progress.add-private-note': { request: addPrivateNoteRequestSchema, response: privateNoteSchema },
  'progress.list-private-notes': { request: listPrivateNotesRequestSchema, response: privateNotePageSchema },
  'leads.list': { request: listLeadsRequestSchema, response: leadPageSchema },
  'leads.counters': { request: leadCountersRequestSchema, response: leadCountersSchema },
  'leads.approve': { request: leadInviteRequestSchema, response: leadInviteResponseSchema },
  'leads.resend': { request: leadInviteRequestSchema, response: leadInviteResponseSchema },
  'leads.reject': { request: leadActionRequestSchema, response: leadSchema },
  'leads.add-client': { request: addClientLeadRequestSchema, response: addClientLeadResponseSchema },
  'progress.preset-evolution': { request: presetEvolutionRequestSchema, response: presetEvolutionResponseSchema },
  'progress.coach-list-clients': { request: listClientsRequestSchema, response: clientPageSchema },
  'progress.coach-count-clients': { request: clientCountRequestSchema, response: clientCountResponseSchema },
  'progress.coach-client': { request: clientRequestSchema, response: clientDetailSchema },
  'progress.coach-update-client': { request: updateClientRequestSchema, response: clientSummarySchema },
  'progress.coach-nudge-draft': { request: coachingDraftRequestSchema, response: nudgeDraftSchema },
  'progress.coach-weekly-check-in': { request: coachingDraftRequestSchema, response: weeklyCheckInSchema },
  'investor.register': { request: registerInvestorRequestSchema, response: registerInvestorResponseSchema },
  'investor.create': { request: registerInvestorRequestSchema, response: investorSchema },
  'investor.list': { request: listInvestorsRequestSchema, response: investorPageSchema },
  'investor.generate-access-code': { request: generateAccessCodeRequestSchema, response: generateAccessCodeResponseSchema },
  'investor.redeem-access-code': { request: deckDownloadRequestSchema, response: redeemAccessCodeResponseSchema },
  'investor.send-email': { request: sendInvestorEmailCommandSchema, response: investorCampaignSchema },
  'investor.get-campaign': { request: getCampaignRequestSchema, response: investorCampaignSchema },
  'content.publish-post': { request: publishPostBusRequestSchema, response: publishPostResponseSchema },
  'content.list-posts': { request: listPostsRequestSchema, response: logPostPageSchema },
  'content.get-post': { request: getPostRequestSchema, response: logPostSchema },
  'content.check-image': { request: checkLogImageRequestSchema, response: checkLogImageResponseSchema },
  'investor.reissue-access-code': { request: generateAccessCodeRequestSchema, response: generateAccessCodeResponseSchema },
  'auth.record-audit-event': { request: auditEventSchema, response: recordAuditEventResponseSchema },
  'auth.list-audit-events': { request: listAuditEventsRequestSchema, response: auditEventPageSchema },
  'auth.request-account-deletion': { request: requestAccountDeletionRequestSchema, response: requestAccountDeletionResponseSchema },
  'auth.confirm-account-deletion': { request: confirmAccountDeletionBodySchema, response: confirmAccountDeletionResponseSchema },
  'auth.deletion-subject': { request: deletionSubjectRequestSchema, response: deletionSubjectSchema },
  'auth.deletion-part-done': { request: deletionPartDoneRequestSchema, response: z.object({ completed: z.boolean() }) },
  'auth.list-account-deletions': { request: listAccountDeletionsRequestSchema, response: accountDeletionPageSchema },
  'progress.get-reminders': { request: getRemindersRequestSchema, response: reminderSettingsSchema },
  'progress.set-reminders': { request: setRemindersRequestSchema, response: reminderSettingsSchema },
  'progress.set-push-subscription': { request: setPushSubscriptionRequestSchema, response: reminderSettingsSchema },
  'progress.unsubscribe-reminders': { request: unsubscribeRemindersRequestSchema, response: unsubscribeRemindersResponseSchema },
  'progress.push-subscription-gone': { request: pushSubscriptionGoneRequestSchema, response: pushSubscriptionGoneResponseSchema },
  'leads.export-lead': { request: exportedPartRequestSchema, response: exportedLeadSchema },
  'investor.export-investor': { request: exportedPartRequestSchema, response: exportedInvestorSchema },
} as const;

/**
 * Requests a replica may simply run again when it takes over another's unanswered entry: reads, and writes keyed
 * by an id the caller chose. Every other request is a command that runs once per request id (its effect and its
 * answer are stored together, and a redelivery gets the stored answer). The reason stays beside each name.
 */
export const replaySafePatterns: Readonly<Partial<Record<PatternName, string>>> = {
  'auth.link-info': 'reads',
  'auth.get-user': 'reads',
  'auth.export-account': 'reads',
  'auth.client-recipient': 'reads',
  'auth.list-users': 'reads',
  'auth.list-audit-events': 'reads',
  'auth.deletion-subject': 'reads',
  'auth.list-account-deletions': 'reads',
  'auth.deletion-part-done': 'marks a part done only if it is not yet: a repeat changes nothing',
  'progress.get-reminders': 'reads',
  'progress.get-export': 'reads (and signs a link)',
  'progress.set-reminders': 'sets the settings to the values sent: a repeat leaves the same',
  'progress.set-push-subscription': 'sets the subscription to the one sent: a repeat leaves the same',
  'progress.unsubscribe-reminders': 'turns reminders off: a repeat leaves them off',
  'progress.push-subscription-gone': 'forgets that one endpoint: a repeat finds nothing to forget',
  'ditl.check-status': 'reads',
  'ditl.get-presentation': 'reads',
  'ditl.current': 'reads',
  'ditl.export-presentation': 'reads',
  'ditl.coach-view': 'reads',
  'progress.get-home': 'reads',
  'progress.list-sparks': 'reads',
  'progress.get-spark': 'reads',
  'progress.list-private-notes': 'reads',
  'progress.coach-list-clients': 'reads',
  'progress.coach-count-clients': 'reads',
  'progress.coach-client': 'reads',
  'progress.coach-nudge-draft': 'drafts text and stores nothing',
  'progress.coach-weekly-check-in': 'drafts text and stores nothing',
  'progress.grant-spark-upload': 'signs an upload URL and stores nothing',
  'progress.record-spark': "keyed by the client's own spark id: a repeat answers with the spark already recorded",
  'leads.list': 'reads',
  'leads.counters': 'reads',
  'leads.export-lead': 'reads',
  'investor.list': 'reads',
  'investor.export-investor': 'reads',
  'investor.get-campaign': 'reads',
  'content.list-posts': 'reads',
  'content.get-post': 'reads',
  'content.check-image': 'reads',
};

/**
 * Reads whose answer depends on the request alone, never on who asks, with why. Callers asking the same of one of
 * these at the same time share one request (`ServiceBus`); it is sent after each of them asked, so nobody reads older
 * than their own last write. A read that filters by the actor, or answers anything but what every allowed caller
 * may see, must not be here.
 */
export const sharedAnswerPatterns: Readonly<Partial<Record<PatternName, string>>> = {
  'leads.counters': "counts every non-investor lead: every coach's and admin's header shows the same numbers",
  'progress.coach-count-clients': "counts every client: every coach's and admin's Clients tab shows the same number",
};

/**
 * Every event pattern (an entry without a reply, sent with `ServiceBus.emit`) → its payload schema. A
 * service runs an entry without a request id only when its pattern is here and its payload matches; no
 * service emits events yet, so today every such entry is refused.
 */
export const eventPatterns = {} as const satisfies Record<string, z.ZodType>;

export type PatternName = keyof typeof patterns;
export type RequestOf<P extends PatternName> = z.input<(typeof patterns)[P]['request']>;
export type ResponseOf<P extends PatternName> = z.output<(typeof patterns)[P]['response']>;
/** What a handler receives: the request after its schema parsed it (defaults applied, e-mail normalised). */
export type PayloadOf<P extends PatternName> = z.output<(typeof patterns)[P]['request']>;
export type EventName = keyof typeof eventPatterns;
export type EventOf<E extends EventName> = z.input<(typeof eventPatterns)[E]>;

export const services = ['auth', 'leads', 'progress', 'investor', 'ditl', 'content'] as const;
export type ServiceName = (typeof services)[number];

/** The service a pattern is addressed to: the text before its first dot. */
export function serviceOf(pattern: string): string {
  const dot = pattern.indexOf('.');
  return dot === -1 ? pattern : pattern.slice(0, dot);
}
