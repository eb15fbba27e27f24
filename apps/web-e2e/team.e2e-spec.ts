import type { Page } from 'playwright-core';
import { createUser, e2eDatabase, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { laptopViewport, phoneViewport, saveScreenshot, searchAnswered, serviceUnavailable, typeThenPause } from './support/browser';

jest.setTimeout(90_000);

const browser = useBrowser();

/** A page signed in (through a real sign-in e-mail) as a new user of `role`. */
async function signedIn(role: 'client' | 'coach' | 'admin', viewport: { width: number; height: number }, fullName: string | null = null) {
  const email = uniqueEmail(`team-${role}`);
  const id = await createUser(email, role, fullName);
  const { page } = await signedInContext(browser(), email, { viewport });
  return { id, email, page };
}

async function openTeam(page: Page): Promise<void> {
  await page.goto('/coach');
  await page.getByRole('tab', { name: 'Team' }).click();
  await page.getByRole('heading', { name: 'Team & Roles' }).waitFor();
}

const roleOf = async (id: string) => (await e2eDatabase().query<{ role: string }>('SELECT role FROM auth.users WHERE id = $1', [id])).rows[0]?.role;

describe('the Team tab', () => {
  it('lets an admin find a person by e-mail and make them a coach after a confirm that names both', async () => {
    const admin = await signedIn('admin', laptopViewport, 'Grace Admin');
    const memberEmail = uniqueEmail('team-member');
    const memberId = await createUser(memberEmail, 'client', 'Maya Lopez');
    await admin.page.clock.install();
    await openTeam(admin.page);
    await admin.page.getByRole('button', { name: 'Everyone' }).waitFor();
    const searches: string[] = [];
    admin.page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/auth/users' && url.searchParams.has('search')) searches.push(url.searchParams.get('search') ?? '');
    });
    const searched = searchAnswered(admin.page, '/api/auth/users', memberEmail.slice(0, 20));
    await typeThenPause(admin.page, admin.page.getByRole('searchbox', { name: 'Search by e-mail' }), memberEmail.slice(0, 20));
    await searched;
    const row = admin.page.getByTestId('team-member').filter({ hasText: memberEmail });
    await row.getByTestId('role-badge').getByText('Client', { exact: true }).waitFor();
    // Sent once the typing pauses, not once per key.
    expect(searches).toEqual([memberEmail.slice(0, 20)]);
    await saveScreenshot(admin.page, 'team-tab-laptop');

    await row.getByLabel('Role of Maya Lopez').selectOption('coach');
    const dialog = admin.page.getByRole('dialog', { name: 'Change role' });
    await dialog.getByText(`(${memberEmail})`).waitFor();
    expect(await dialog.textContent()).toContain(`Make Maya Lopez (${memberEmail}) a coach?`);
    await dialog.getByText('They will be signed out on every device and sign in again with the new role.').waitFor();
    await saveScreenshot(admin.page, 'team-change-role-laptop');
    await dialog.getByRole('button', { name: 'Make coach' }).click();
    await admin.page.getByText('Maya Lopez is now a coach').waitFor();
    await row.getByTestId('role-badge').getByText('Coach', { exact: true }).waitFor();
    expect(await roleOf(memberId)).toBe('coach');

    // Cancel changes nothing.
    await row.getByLabel('Role of Maya Lopez').selectOption('admin');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row.getByLabel('Role of Maya Lopez').inputValue()).toBe('coach');
    expect(await roleOf(memberId)).toBe('coach');
    await admin.page.context().close();
  });

  it('says the team could not be loaded, never that no one was found, and loads it on "Try again"', async () => {
    const admin = await signedIn('admin', laptopViewport, 'Grace Admin');
    const people = /\/api\/auth\/users\?/;
    await admin.page.route(people, (route) => route.fulfill(serviceUnavailable));
    await openTeam(admin.page);
    await admin.page.getByText('The team could not be loaded.').waitFor();
    expect(await admin.page.getByText('No one found').count()).toBe(0);
    await saveScreenshot(admin.page, 'team-failed-laptop');
    await admin.page.unroute(people);
    await admin.page.getByRole('button', { name: 'Try again' }).click();
    await admin.page.getByTestId('team-member').first().waitFor();
    await admin.page.context().close();
  });

  it('signs an admin out once they gave up their own admin role', async () => {
    // Another admin stays, so this one is not the last.
    await createUser(uniqueEmail('team-remaining-admin'), 'admin');
    const admin = await signedIn('admin', phoneViewport, 'Sam Stepdown');
    await openTeam(admin.page);
    const searched = searchAnswered(admin.page, '/api/auth/users', admin.email);
    await admin.page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(admin.email);
    await searched;
    const row = admin.page.getByTestId('team-member').filter({ hasText: admin.email });
    await row.getByText('You', { exact: true }).waitFor();
    await saveScreenshot(admin.page, 'team-tab-phone');
    await row.getByLabel('Role of Sam Stepdown').selectOption('coach');
    const dialog = admin.page.getByRole('dialog', { name: 'Change role' });
    await dialog.getByText('You will be signed out and sign in again with your new role.').waitFor();
    await saveScreenshot(admin.page, 'team-change-role-phone');
    await dialog.getByRole('button', { name: 'Make coach' }).click();
    await admin.page.waitForURL((url) => url.pathname === '/');
    expect(await roleOf(admin.id)).toBe('coach');
    await admin.page.context().close();
  });

  it('signs a coach out at their next read once an admin has made them a client, before it shows any client', async () => {
    const admin = await signedIn('admin', laptopViewport, 'Grace Admin');
    const coach = await signedIn('coach', laptopViewport, 'Dana Demoted');
    await coach.page.goto('/coach');
    await coach.page.getByRole('tab', { name: /^Leads/ }).waitFor();

    await openTeam(admin.page);
    const searched = searchAnswered(admin.page, '/api/auth/users', coach.email);
    await admin.page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(coach.email);
    await searched;
    await admin.page.getByTestId('team-member').filter({ hasText: coach.email }).getByLabel('Role of Dana Demoted').selectOption('client');
    await admin.page.getByRole('dialog', { name: 'Change role' }).getByRole('button', { name: 'Make client' }).click();
    await admin.page.getByText('Dana Demoted is now a client').waitFor();

    // Only a read: the client list the coach's old token may no longer fetch.
    const listAnswers: number[] = [];
    coach.page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/coach/clients') listAnswers.push(response.status());
    });
    await coach.page.getByRole('tab', { name: /^Clients/ }).click();
    await coach.page.waitForURL((url) => url.pathname === '/interest');
    expect(listAnswers).toContain(401);
    expect(listAnswers).not.toContain(200);
    await Promise.all([admin.page.context().close(), coach.page.context().close()]);
  });

  it('is not shown to a coach', async () => {
    const coach = await signedIn('coach', laptopViewport);
    await coach.page.goto('/coach');
    await coach.page.getByRole('tab', { name: /^Leads/ }).waitFor();
    expect(await coach.page.getByRole('tab', { name: 'Team' }).count()).toBe(0);
    await coach.page.context().close();
  });
});
