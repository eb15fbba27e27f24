import sharp from 'sharp';
import { serviceUnavailable, waitUntilTrue } from './support/browser';
import { createUser, e2eDatabase, signInOn, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { openHomeThroughServiceWorker, photo, signedInClient, sparkRows } from './support/client-fixtures';

jest.setTimeout(120_000);

const browser = useBrowser();
const offlineBanner = 'Offline: showing your last saved progress';

/** A photo of noise, which no encoder shrinks: about `kib` KiB on the wire. */
async function largePhoto(kib: number) {
  const side = Math.round(Math.sqrt((kib * 1024) / 3));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256);
  const buffer = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { name: 'long-run.png', mimeType: 'image/png', buffer };
}

/** The client app on a connection that fails in the ways phones' do: silent, slow, or reaching a Spark that is away. */
describe('the client app on a poor connection', () => {
  it('gives up a recording whose answer never comes, keeps the spark, and sends it again by itself', async () => {
    const { context, page, userId } = await signedInClient(browser(), { testTiming: { answerDeadlineMs: 5_000 } });
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    let recordings = 0;
    let releaseSilentRecording = () => {};
    const testOver = new Promise<void>((resolve) => (releaseSilentRecording = resolve));
    await page.route(/\/api\/sparks$/, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      // The first recording reaches a connection that stays open and silent, as a dead mobile link does.
      if (recordings++ === 0) return testOver.then(() => route.abort().catch(() => undefined));
      return route.continue();
    });
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor();
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('It could not be sent just now. It will upload automatically in a moment.').waitFor();
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect({ recordings, recorded: await sparkRows(userId) }).toEqual({ recordings: 2, recorded: 1 });
    releaseSilentRecording();
    await context.close();
  });

  it('opens the last saved home when Spark cannot be reached though the phone is online, and signs in by itself once it answers', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    // Spark restarting: every refresh of the session fails for a while, past the first restore's own quick retries.
    let refreshesRefused = 0;
    await context.route(/\/api\/auth\/refresh$/, (route) => (refreshesRefused++ < 6 ? route.fulfill(serviceUnavailable) : route.continue()));
    await page.reload();
    await page.getByText(offlineBanner).waitFor();
    await page.getByText(offlineBanner).waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`, 30_000);
    expect({ refreshesRefused: refreshesRefused > 6, recorded: await sparkRows(userId) }).toEqual({ refreshesRefused: true, recorded: 1 });
    expect(await page.getByRole('heading', { name: 'Not authenticated' }).count()).toBe(0);
    await context.close();
  });

  it('shows the next person who signs in on this browser their own home, never the one kept while Spark was away', async () => {
    const { context, page, userId } = await signedInClient(browser());
    const coachId = await createUser(uniqueEmail('coach'), 'coach');
    const firstNote = 'Lovely early run, Maya!';
    await e2eDatabase().query(`INSERT INTO progress.coach_notes (user_id, coach_id, message, is_pinned) VALUES ($1, $2, $3, true)`, [
      userId,
      coachId,
      firstNote,
    ]);
    await page.goto('/app');
    await page.getByText(firstNote).waitFor();
    let sparkAway = true;
    await page.route(/\/api\/auth\/refresh$/, (route) => (sparkAway ? route.fulfill(serviceUnavailable) : route.continue()));
    await page.reload();
    await page.getByText(offlineBanner).waitFor();

    // Someone else signs in on this browser in another tab; this tab's home cannot be read just now.
    const nextEmail = uniqueEmail('client-app-next');
    await createUser(nextEmail, 'client', 'Noah Fischer');
    await signInOn(await context.newPage(), nextEmail);
    await page.route(/\/api\/progress\/me$/, (route) => route.fulfill(serviceUnavailable));
    sparkAway = false;

    await page.getByText(/Noah/).first().waitFor({ timeout: 60_000 });
    expect(await page.getByText(firstNote).count()).toBe(0);
    await context.close();
  });

  it('keeps a capture being written open, with its note, when the network returns to an app opened offline', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await openHomeThroughServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText(offlineBanner).waitFor();
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    const dialog = page.getByRole('dialog', { name: 'Quick Capture' });
    await dialog.getByLabel('Note').fill('Morning run by the river');

    await context.setOffline(false);
    await page.getByText(offlineBanner).waitFor({ state: 'detached', timeout: 30_000 });
    await expect(dialog.getByLabel('Note').inputValue()).resolves.toBe('Morning run by the river');
    await dialog.getByRole('button', { name: 'Capture Spark' }).click();
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`, 30_000);
    expect(await sparkRows(userId)).toBe(1);
    await context.close();
  });

  it('uploads a photo over a link too slow for any whole-upload deadline, as long as its bytes keep moving', async () => {
    const { context, page, userId } = await signedInClient(browser(), { testTiming: { answerDeadlineMs: 5_000, uploadStallMs: 10_000 } });
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    let uploads = 0;
    page.on('request', (request) => void (request.method() === 'PUT' && uploads++));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 8 * 1024 });
    await page.getByTestId('quick-capture-input').setInputFiles(await largePhoto(120));
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`, 90_000);
    expect({ uploads, recorded: await sparkRows(userId) }).toEqual({ uploads: 1, recorded: 1 });
    await context.close();
  });

  it('sends a capture kept offline once when the network returns to two open tabs of the app', async () => {
    const { context, page, userId } = await signedInClient(browser());
    // The app's service worker serves the second tab while the device is offline.
    await openHomeThroughServiceWorker(page);
    const sent = { grants: 0, files: 0 };
    context.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sparks/uploads') sent.grants++;
      if (request.method() === 'PUT') sent.files++;
    });
    await context.setOffline(true);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByTestId('pending-sparks').waitFor();
    // The same person opens the app in a second tab, which reads the same waiting capture from the device.
    const secondTab = await context.newPage();
    await secondTab.goto('/app');
    await secondTab.getByTestId('pending-sparks').waitFor();

    await context.setOffline(false);
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await secondTab.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    expect({ recorded: await sparkRows(userId), ...sent }).toEqual({ recorded: 1, grants: 1, files: 1 });
    await context.close();
  });
});
