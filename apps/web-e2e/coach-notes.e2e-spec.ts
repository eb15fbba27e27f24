import { eventually } from '@spark/testing';
import type { Page } from 'playwright-core';
import { e2eDatabase, useBrowser } from './support/auth-fixtures';
import { saveScreenshot } from './support/browser';
import { clientRow, createClient, openManageClient, signedIn } from './support/coach-fixtures';

// A coach's note whose answer is lost on the way back: the coach presses again and the client has it once. And the
// private notes of a client with more than a page of them, down to the oldest.
jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();
const unexpectedError = 'An unexpected error occurred. Please try again.';

/**
 * The first POST to `url` reaches the product, which does its work, and then the connection drops before the answer
 * reaches the page. Answers the Idempotency-Key each POST carried.
 */
async function loseFirstAnswerDropped(page: Page, url: RegExp): Promise<(string | undefined)[]> {
  const keys: (string | undefined)[] = [];
  await page.route(url, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(
      await route
        .request()
        .headerValue('idempotency-key')
        .then((value) => value ?? undefined),
    );
    if (keys.length > 1) return route.continue();
    await route.fetch();
    await route.abort('connectionreset');
  });
  return keys;
}

describe("a coach's notes when the answer is lost", () => {
  it('keeps one private note and one nudge when the coach presses again after the connection dropped', async () => {
    const { email, userId } = await createClient('Read ten pages a day');
    const { page } = await signedIn(browser(), 'coach');
    const privateNotes = await loseFirstAnswerDropped(page, new RegExp(`/api/progress/clients/${userId}/private-notes$`));
    const nudges = await loseFirstAnswerDropped(page, new RegExp(`/api/progress/clients/${userId}/notes$`));
    await openManageClient(page, email);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Activity' }).click();
    await dialog.getByText('No private notes yet.').waitFor();

    const note = 'Prefers a call on Monday mornings.';
    await dialog.getByLabel('Private note').fill(note);
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText(unexpectedError).waitFor();
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Private note saved').waitFor();
    await dialog.getByRole('listitem').filter({ hasText: note }).waitFor();
    expect(await dialog.getByRole('listitem').filter({ hasText: note }).count()).toBe(1);
    expect((await db.query('SELECT note FROM progress.coach_private_notes WHERE user_id = $1', [userId])).rows).toEqual([{ note }]);
    expect(privateNotes).toHaveLength(2);
    expect(privateNotes[1]).toBe(privateNotes[0]);
    await saveScreenshot(page, 'coach-private-note-after-lost-answer-laptop');

    const nudge = 'One page before bed counts.';
    await dialog.getByLabel('Nudge message').fill(nudge);
    await dialog.getByRole('button', { name: 'Send Nudge' }).click();
    await page.getByText(unexpectedError).last().waitFor();
    await dialog.getByRole('button', { name: 'Send Nudge' }).click();
    await page.getByText('Nudge sent').waitFor();
    const nudgesStored = async () => (await db.query('SELECT message FROM progress.coach_notes WHERE user_id = $1', [userId])).rows;
    expect(await nudgesStored()).toEqual([{ message: nudge }]);
    expect(nudges[1]).toBe(nudges[0]);

    // The same words sent again after a success are a new nudge, with a new key.
    await dialog.getByLabel('Nudge message').fill(nudge);
    await dialog.getByRole('button', { name: 'Send Nudge' }).click();
    // The first "Nudge sent" may still be on screen: the second nudge is awaited where it is stored.
    await eventually(async () => (await nudgesStored()).length === 2, 10_000, 'the second nudge stored');
    expect(new Set(nudges).size).toBe(2);
    await page.context().close();
  });
});

describe("a coach's note whose answer was lost, sent again after the dialog closed", () => {
  it('keeps one private note when the coach closes Manage Client, opens it again and sends the same words', async () => {
    const { email, userId } = await createClient('Walk every evening');
    const { page } = await signedIn(browser(), 'coach');
    const privateNotes = await loseFirstAnswerDropped(page, new RegExp(`/api/progress/clients/${userId}/private-notes$`));
    const note = 'Walks with a neighbour on Tuesdays.';
    await openManageClient(page, email);
    await page.keyboard.press('Escape');
    const addNote = async () => {
      await clientRow(page, email).getByRole('button', { name: 'Manage Client' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('tab', { name: 'Activity' }).click();
      await dialog.getByLabel('Private note').fill(note);
      await dialog.getByRole('button', { name: 'Add Note' }).click();
      return dialog;
    };
    await addNote();
    await page.getByText(unexpectedError).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const dialog = await addNote();
    await page.getByText('Private note saved').waitFor();
    await dialog.getByRole('listitem').filter({ hasText: note }).waitFor();
    expect((await db.query('SELECT note FROM progress.coach_private_notes WHERE user_id = $1', [userId])).rows).toEqual([{ note }]);
    expect(privateNotes).toHaveLength(2);
    expect(privateNotes[1]).toBe(privateNotes[0]);
    await page.context().close();
  });
});

describe("a client's private notes, more than a page of them", () => {
  it('shows the newest page first, the oldest note after "Load more", and a note just added at the top', async () => {
    const { email, userId } = await createClient('Drink water before coffee');
    // Thirty notes a minute apart, written by another coach of the team, the first of them the oldest.
    await db.query(
      `INSERT INTO progress.coach_private_notes (user_id, coach_id, note, created_at)
       SELECT $1, gen_random_uuid(), 'Session note ' || n, now() - interval '1 day' + n * interval '1 minute' FROM generate_series(1, 30) AS n`,
      [userId],
    );
    const { page } = await signedIn(browser(), 'coach');
    await openManageClient(page, email);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Activity' }).click();
    const notes = dialog.getByRole('listitem').filter({ hasText: /^Session note \d+/ });
    await notes.first().getByText('Session note 30', { exact: true }).waitFor();
    expect(await notes.count()).toBe(25);
    expect(await dialog.getByText('Session note 1', { exact: true }).count()).toBe(0);

    await dialog.getByRole('button', { name: 'Load more' }).click();
    await dialog.getByText('Session note 1', { exact: true }).waitFor();
    expect(await notes.count()).toBe(30);
    expect(await notes.last().getByText('Session note 1', { exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await saveScreenshot(page, 'coach-private-notes-all-pages-laptop');

    await dialog.getByLabel('Private note').fill('Asked to move calls to Tuesdays.');
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Private note saved').waitFor();
    await dialog.getByRole('listitem').first().getByText('Asked to move calls to Tuesdays.').waitFor();
    await page.context().close();
  });
});
