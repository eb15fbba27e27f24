// Reads the e2e stack's maildev through its REST API (GET /email lists every message).

export interface MailAddress {
  address: string;
  name: string;
}

export interface ReceivedEmail {
  id: string;
  subject: string;
  from: MailAddress[];
  to: MailAddress[];
  text?: string;
  html?: string;
  date: string;
}

function mailboxUrl(): string {
  const url = process.env.E2E_MAILBOX_URL;
  if (!url) throw new Error('E2E_MAILBOX_URL is not set: run the tests through jest --selectProjects e2e');
  return url;
}

async function listEmails(): Promise<ReceivedEmail[]> {
  const response = await fetch(`${mailboxUrl()}/email`);
  if (!response.ok) throw new Error(`maildev answered ${response.status}`);
  return (await response.json()) as ReceivedEmail[];
}

export const sentTo = (address: string) => (email: ReceivedEmail) => email.to.some((recipient) => recipient.address.toLowerCase() === address.toLowerCase());

/** Every e-mail matching `predicate` once there are at least `count`, polling until `timeoutMs` has passed. */
export async function waitForEmails(predicate: (email: ReceivedEmail) => boolean, count: number, timeoutMs = 15_000): Promise<ReceivedEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matches = (await listEmails()).filter(predicate);
    if (matches.length >= count) return matches;
    if (Date.now() > deadline) throw new Error(`${matches.length} of ${count} matching e-mails within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first e-mail matching `predicate`, polling until `timeoutMs` has passed. */
export async function waitForEmail(predicate: (email: ReceivedEmail) => boolean, timeoutMs = 15_000): Promise<ReceivedEmail> {
  const [first] = await waitForEmails(predicate, 1, timeoutMs);
  if (!first) throw new Error('waitForEmails returned no e-mail');
  return first;
}
