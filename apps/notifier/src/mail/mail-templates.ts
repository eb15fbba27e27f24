import type { SigningKeys } from '@spark/config';
import { type ClientRecipient, CODE_GUESS_LIMIT, exportPrefix, type JobPayload, type OpenedMailJob } from '@spark/contracts';
import { ditlRequestRefusal, leadSubmissionRefusal } from '@spark/messaging';
import { UnrecoverableError } from 'bullmq';
import { layout } from './layout';
import { HOUR_MS } from './lead-alert-cap';
import { refuseUnstated } from './unstated-mail';
import type { OutgoingMail } from './mailer';

export interface TemplateContext {
  publicUrl: string;
  leadAlertEmail: string;
  /** Where the clients' archives are stored: the sparks bucket, as the progress service signs their links. */
  storageUrl: string;
}

/**
 * A sealed link stays where the product makes it, under `base`. Every service that queues mail holds the key that
 * seals, so without this one taken over could send a sign-in, deletion or export e-mail in the product's name that
 * leads elsewhere; such a job fails for good.
 */
function linkUnder(url: string, base: string, where: string): string {
  const link = new URL(url);
  const allowed = new URL(base);
  if (link.origin !== allowed.origin || !link.pathname.startsWith(allowed.pathname)) throw new UnrecoverableError(`the e-mail's link is not ${where}`);
  return url;
}

const productLink = (url: string, context: TemplateContext) => linkUnder(url, context.publicUrl, "on the product's site (PUBLIC_URL)");
const exportLink = (url: string, userId: string, context: TemplateContext) =>
  linkUnder(url, `${context.storageUrl}${exportPrefix(userId)}`, "to the client's own archive in the product's storage (S3_ENDPOINT, S3_BUCKET)");

/** Only to an address a visitor submitted, worded for the role they chose (the gateway's signature of their form). */
export function leadConfirmation(
  data: JobPayload<'mail', 'lead-confirmation'>,
  context: TemplateContext,
  signingKeys: SigningKeys,
  now = Date.now(),
): OutgoingMail {
  refuseUnstated('lead confirmation', leadSubmissionRefusal(signingKeys, data, now));
  const next =
    data.role === 'coach'
      ? 'Once approved, you will get a one-time sign-in link to set up your coaching practice.'
      : 'Once approved, you will get a one-time sign-in link to begin your onboarding and your first 90-day evolution.';
  const paragraphs = [
    'Thank you for expressing interest in The Spark. Access is by coach approval, so a real person reviews every request.',
    'We will reach out within 48-72 hours.',
    next,
  ];
  return {
    to: data.email,
    subject: 'We received your interest in The Spark',
    text: [...paragraphs, `Learn more: ${context.publicUrl}/evolutions`].join('\n\n'),
    html: layout('Your evolution starts here', paragraphs, { label: 'How evolutions work', url: `${context.publicUrl}/evolutions` }),
  };
}

/**
 * A visitor's words, quoted in an e-mail to the team, with every web, file or network address and host name written
 * so that no mail client makes a link of it (`hxxps://example[.]com`): a genuine Spark e-mail must not hand the people
 * who can read every client's sparks a stranger's link.
 */
const withoutLinks = (text: string) =>
  text
    .replace(/\b(h)tt(ps?):\/\//gi, '$1xx$2://')
    .replace(/\b(file):\/\//gi, '$1[:]//')
    .replace(/\\\\(?=[\p{L}\p{N}])/gu, '\\[\\]')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, (address) => address.replaceAll('.', '[.]'))
    .replace(/([\p{L}\p{N}-])\.(?=\p{L}{2})/gu, '$1[.]');

/** Only of a form a visitor submitted, in their own words (the gateway's signature of it). */
export function leadAlert(data: JobPayload<'mail', 'lead-alert'>, context: TemplateContext, signingKeys: SigningKeys, now = Date.now()): OutgoingMail {
  refuseUnstated('lead alert', leadSubmissionRefusal(signingKeys, data, now));
  const paragraphs = [
    `E-mail: ${data.email}`,
    `Role: ${data.role}`,
    `Interest: ${data.interest === null ? 'Not specified' : withoutLinks(data.interest)}`,
    `Submitted: ${new Date(data.createdAt).toUTCString()}`,
  ];
  return {
    to: context.leadAlertEmail,
    subject: `New ${data.role} lead: ${data.email}`,
    text: [...paragraphs, `Review it: ${context.publicUrl}/coach`].join('\n'),
    html: layout('A new lead is waiting for review', paragraphs, { label: 'Open the dashboard', url: `${context.publicUrl}/coach` }),
  };
}

const clockHour = (time: number) => new Date(time).toISOString().slice(11, 16);

/**
 * The team's one e-mail for an hour's leads past the cap on alerts sent one by one (`LeadAlertCap`), worded as the
 * alert. It names the first few (`named`, the erased left out) by address and role, never their words, and counts
 * the rest.
 */
export function leadAlertDigest(
  digest: { windowStart: number; count: number; named: readonly { email: string; role: string }[]; perHour: number },
  context: TemplateContext,
): OutgoingMail {
  const { windowStart, count, named, perHour } = digest;
  const between = `between ${clockHour(windowStart)} and ${clockHour(windowStart + HOUR_MS)} UTC on ${new Date(windowStart).toUTCString().slice(0, 16)}`;
  const paragraphs = [
    `${count} more ${count === 1 ? 'person' : 'people'} expressed interest ${between}.`,
    `Past ${perHour} new-lead alerts an hour, the hour's other leads come together in this one e-mail.`,
    ...named.map((lead) => `E-mail: ${lead.email} (${lead.role})`),
    ...(count > named.length ? [`And ${count - named.length} more, listed on the dashboard.`] : []),
  ];
  return {
    to: context.leadAlertEmail,
    subject: `${count} more ${count === 1 ? 'lead' : 'leads'} ${between}`,
    text: [...paragraphs, `Review them: ${context.publicUrl}/coach`].join('\n'),
    html: layout('New leads are waiting for review', paragraphs, { label: 'Open the dashboard', url: `${context.publicUrl}/coach` }),
  };
}

export function magicLink(data: OpenedMailJob<'magic-link'>, context: TemplateContext): OutgoingMail {
  const link = productLink(data.link, context);
  const invited = data.purpose === 'invite';
  const paragraphs = [
    invited ? 'Your coach approved your request. Use the button below to sign in and begin your onboarding.' : 'Use the button below to sign in to The Spark.',
    `Or enter this code on the sign-in page: ${data.code}`,
    'The link and the code work once and expire in 1 hour. If you did not ask for this, you can ignore this e-mail.',
  ];
  return {
    to: data.email,
    subject: invited ? 'You are approved: your sign-in link for The Spark' : 'Your sign-in link for The Spark',
    text: [...paragraphs, `Sign in: ${link}`].join('\n\n'),
    html: layout(invited ? 'Welcome to The Spark' : 'Sign in to The Spark', paragraphs, { label: 'Sign in', url: link }),
  };
}

export function codeSignInLocked(data: JobPayload<'mail', 'code-sign-in-locked'>, context: TemplateContext): OutgoingMail {
  const signIn = `${context.publicUrl}/signin`;
  const paragraphs = [
    `Someone entered ${CODE_GUESS_LIMIT.failures} wrong sign-in codes for ${data.email} within ${CODE_GUESS_LIMIT.hours} hours. To keep your account safe, signing in with a code is paused for the next ${CODE_GUESS_LIMIT.hours} hours.`,
    'Sign-in links still work: request a new link and open it from this mailbox. Using a link also lifts the pause.',
    'If this was not you, you do not need to do anything: nobody can sign in without access to your e-mail.',
  ];
  return {
    to: data.email,
    subject: 'Sign-in codes paused for your Spark account',
    text: [...paragraphs, `Request a sign-in link: ${signIn}`].join('\n\n'),
    html: layout('We paused sign-in codes for your account', paragraphs, { label: 'Request a sign-in link', url: signIn }),
  };
}

/** Only to a client who asked for it, greeted by the name they gave (the gateway's signature of their request). */
export function ditlReady(data: JobPayload<'mail', 'ditl-ready'>, context: TemplateContext, signingKeys: SigningKeys, now = Date.now()): OutgoingMail {
  refuseUnstated('Day in the Life e-mail', ditlRequestRefusal(signingKeys, data, now));
  const link = `${context.publicUrl}/ditl-welcome?generationId=${encodeURIComponent(data.generationId)}`;
  const paragraphs = [
    `Hi ${data.firstName}, your personalised "Day in the Life" is ready.`,
    'It walks through one of your typical days with the habits, sparks to capture and weekly rhythm that fit your goal.',
    'Sign in with your e-mail to open it; your coach can see it too and will refine it with you.',
  ];
  return {
    to: data.email,
    subject: 'Your Day in the Life is ready',
    text: [...paragraphs, `Open it: ${link}`].join('\n\n'),
    html: layout('Your Day in the Life is ready', paragraphs, { label: 'Open my Day in the Life', url: link }),
  };
}

export function dataExportReady(data: OpenedMailJob<'data-export-ready'>, context: TemplateContext): OutgoingMail {
  const downloadUrl = exportLink(data.downloadUrl, data.userId, context);
  const paragraphs = [
    "Your Spark data is ready: your profile and onboarding answers, every spark with its original file and note, your coach's notes to you, your Day in the Life, and your evolutions and streak history.",
    `The download link works until ${new Date(data.expiresAt).toUTCString()}. After that, ask for a new export from your home screen.`,
    'Keep this link to yourself: anyone who has it can download your data until it expires.',
  ];
  return {
    to: data.email,
    subject: 'Your Spark data is ready to download',
    text: [...paragraphs, `Download: ${downloadUrl}`].join('\n\n'),
    html: layout('Your data is ready', paragraphs, { label: 'Download my data', url: downloadUrl }),
  };
}

export function accountDeletionConfirm(data: OpenedMailJob<'account-deletion-confirm'>, context: TemplateContext): OutgoingMail {
  const confirmUrl = productLink(data.confirmUrl, context);
  const paragraphs = [
    "You asked to delete your Spark account. Confirming deletes your profile, onboarding answers, every spark and its file, your coach's notes, your Day in the Life and your streak history, and signs you out everywhere. It cannot be undone.",
    `The link works until ${new Date(data.expiresAt).toUTCString()}. Want a copy first? Use "Download my data" on your home screen before you confirm.`,
    'If you did not ask for this, ignore this e-mail: nothing is deleted unless the link is used.',
  ];
  return {
    to: data.email,
    subject: 'Confirm deleting your Spark account',
    text: [...paragraphs, `Confirm: ${confirmUrl}`].join('\n\n'),
    html: layout('Confirm deleting your account', paragraphs, { label: 'Review and confirm', url: confirmUrl }),
  };
}

/** To the client's account (`recipient`, from the auth-service), greeted by its name. */
export function sparkReminder(data: OpenedMailJob<'spark-reminder'>, recipient: ClientRecipient, context: TemplateContext): OutgoingMail {
  const captureUrl = `${context.publicUrl}/app?capture=1`;
  const unsubscribeUrl = `${context.publicUrl}/api/reminders/unsubscribe?token=${encodeURIComponent(data.unsubscribeToken)}`;
  const turnOffUrl = `${context.publicUrl}/reminders/off#token=${encodeURIComponent(data.unsubscribeToken)}`;
  const paragraphs = [
    `${recipient.firstName ? `Hi ${recipient.firstName}, n` : 'N'}o spark yet today. One photo or a line about a small win keeps your streak going.`,
    'You get this only on days without a spark, at the time you chose. Change the time or turn reminders off on your home screen.',
  ];
  return {
    to: recipient.email,
    subject: 'A spark for today?',
    text: [...paragraphs, `Capture a spark: ${captureUrl}`, `Turn off these reminders: ${turnOffUrl}`].join('\n\n'),
    html: layout('A spark for today?', [...paragraphs, `No longer want them? Turn off reminders: ${turnOffUrl}`], {
      label: 'Capture a spark',
      url: captureUrl,
    }),
    unsubscribeUrl,
  };
}
