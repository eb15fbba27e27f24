// What the coach dashboard's browser tests share: a coach or admin signed in, a client who finished onboarding,
// a lead submitted through the API, and where each shows on /coach.
import type { Browser, Dialog, Page } from 'playwright-core';
import { createUser, e2eDatabase, signedInContext, uniqueEmail } from './auth-fixtures';
import { baseUrl, laptopViewport, searchAnswered, shownInPagedList, uniqueIp } from './browser';

/**
 * A browser page signed in as a new user of `role` through a real sign-in e-mail, the dialogs it has shown, and the
 * session's bearer token for what a test asks the API directly.
 */
export async function signedIn(
  browser: Browser,
  role: 'client' | 'coach' | 'admin',
  viewport: { width: number; height: number } = laptopViewport,
): Promise<{ page: Page; dialogs: string[]; accessToken: string }> {
  const email = uniqueEmail(`dashboard-${role}`);
  await createUser(email, role);
  const { page, accessToken } = await signedInContext(browser, email, { viewport });
  const dialogs: string[] = [];
  // Development mode offers to copy the link: decline, so the test does not depend on clipboard access.
  page.on('dialog', (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (dialog.type() === 'confirm' ? dialog.dismiss() : dialog.accept());
  });
  return { page, dialogs, accessToken };
}

/** A client who finished onboarding: a user and a progress row starting today. */
export async function createClient(goal: string): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail('coached-client');
  const userId = await createUser(email, 'client');
  await e2eDatabase().query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date)
     VALUES ($1, $2, 'Maya Lopez', $3, current_date, current_date + 90)`,
    [userId, email, goal],
  );
  return { email, userId };
}

export async function submitLead(email: string, role: 'client' | 'coach' = 'client'): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
    body: JSON.stringify({ email, role }),
  });
  expect(response.status).toBe(201);
}

export const leadRow = (page: Page, email: string) => page.getByTestId('lead-row').filter({ hasText: email });

export const clientRow = (page: Page, email: string) => page.getByTestId('client-row').filter({ hasText: email });

export async function openManageClient(page: Page, email: string): Promise<void> {
  await page.goto('/coach');
  await page.getByRole('tab', { name: /^Clients/ }).click();
  // The list is paged, newest evolution first: other files' clients may come before this one.
  const row = await shownInPagedList(page, clientRow(page, email));
  await row.getByRole('button', { name: 'Manage Client' }).click();
  await page.getByRole('dialog').waitFor();
}

/** The lead's row once the search for its e-mail has been answered. */
export async function findLead(page: Page, email: string) {
  const searched = searchAnswered(page, '/api/coach/leads', email);
  await page.getByLabel('Search leads').fill(email);
  await searched;
  await leadRow(page, email).waitFor();
  return leadRow(page, email);
}
