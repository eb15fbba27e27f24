import type { JobPayload } from '@spark/contracts';
import { layout } from './layout';
import type { OutgoingMail } from './mailer';

export interface TemplateContext {
  publicUrl: string;
  leadAlertEmail: string;
}

export function leadConfirmation(data: JobPayload<'mail', 'lead-confirmation'>, context: TemplateContext): OutgoingMail {
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

export function leadAlert(data: JobPayload<'mail', 'lead-alert'>, context: TemplateContext): OutgoingMail {
  const paragraphs = [
    `E-mail: ${data.email}`,
    `Role: ${data.role}`,
    `Interest: ${data.interest ?? 'Not specified'}`,
    `Submitted: ${new Date(data.createdAt).toUTCString()}`,
  ];
  return {
    to: context.leadAlertEmail,
    subject: `New ${data.role} lead: ${data.email}`,
    text: [...paragraphs, `Review it: ${context.publicUrl}/coach`].join('\n'),
    html: layout('A new lead is waiting for review', paragraphs, { label: 'Open the dashboard', url: `${context.publicUrl}/coach` }),
  };
}
