import { randomUUID } from 'node:crypto';
import { localDate } from '@spark/contracts';
import type { Page } from 'playwright-core';
import { holdBack, laptopViewport, phoneViewport, saveScreenshot, serviceUnavailable, visitorContext, waitUntilTrue } from './support/browser';
import { e2eDatabase, sparkKeysStored, useBrowser } from './support/auth-fixtures';
import { openHomeThroughServiceWorker, photo, type SignedInClient, signedInClient, sparkRows } from './support/client-fixtures';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

// The client's sparks already take the whole default quota (2 GB).
const fillStorage = (userId: string) => db.query('UPDATE progress.user_progress SET stored_bytes = 2 * 1024::bigint ^ 3 WHERE user_id = $1', [userId]);
// Every API answer in the origin's Cache Storage, whichever cache holds it: what the next person on the device could be served.
const cachedApiAnswers = (page: Page) =>
  page.evaluate<string[]>(`(async () => {
    const urls = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(name + ' ' + request.url);
    return urls.filter((entry) => new URL(entry.split(' ')[1]).pathname.startsWith('/api/'));
  })()`);
/** A signed-in client on their home who captured a photo with the phone offline: it waits on the device, shown as pending. */
async function clientWithCaptureKeptOffline(): Promise<SignedInClient> {
  const client = await signedInClient(browser());
  const { context, page } = client;
  await page.goto('/app');
  await page.getByTestId('spark-count').waitFor();
  await context.setOffline(true);
  await page.getByTestId('quick-capture-input').setInputFiles(photo());
  await page.getByRole('button', { name: 'Capture Spark' }).click();
  await page.getByTestId('pending-sparks').waitFor();
  return client;
}

describe('the client app (/app)', () => {
  it('greets by the mocked local time with the first name, and shows the evolution numbers', async () => {
    const { context, page } = await signedInClient(browser(), { clock: new Date('2025-06-10T08:15:00-04:00') });
    await page.goto('/app');
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Good morning, Maya');
    await expect(page.getByTestId('evolution').textContent()).resolves.toBe('Evolution 1');
    await expect(page.getByText('Run a half marathon by spring').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Welcome to your evolution').isVisible()).resolves.toBe(true);
    await page.clock.setFixedTime(new Date('2025-06-10T19:00:00-04:00'));
    await page.reload();
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Good evening, Maya');
    await context.close();
  });

  it('captures a photo with a note: preview, "Uploading...", milestone toast, count updated', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByRole('button', { name: 'or add a note with your capture' }).click();
    await page.getByRole('dialog', { name: 'Capture Your Spark' }).waitFor();
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('Please select a photo or file to capture').waitFor();
    await page.getByTestId('file-input').setInputFiles(photo());
    await page.getByAltText('Preview of your spark').waitFor();
    // Choosing a file answers the error, so it goes at once rather than when its time runs out.
    await page.getByText('Please select a photo or file to capture').waitFor({ state: 'hidden', timeout: 2_000 });
    await page.getByLabel('Note').fill('Morning run before work');
    await saveScreenshot(page, 'client-app-capture-phone');
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('Your first spark! Your evolution has officially begun.').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect(await sparkRows(userId)).toBe(1);
    const { rows } = await db.query('SELECT note, spark_type FROM progress.sparks WHERE user_id = $1', [userId]);
    expect(rows).toEqual([{ note: 'Morning run before work', spark_type: 'photo' }]);
    await saveScreenshot(page, 'client-app-home-phone');
    await context.close();
  });

  it('keeps a spark captured offline as pending, then uploads it exactly once when back online', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    await context.setOffline(true);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor();
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByTestId('pending-sparks').waitFor();
    await saveScreenshot(page, 'client-app-offline-pending-phone');
    expect(await sparkRows(userId)).toBe(0);
    await context.setOffline(false);
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect(await sparkRows(userId)).toBe(1);
    await context.close();
  });

  it('keeps a spark Spark could not take just now, says so, and sends it again by itself without uploading the file twice', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    const sent = { grants: 0, files: 0 };
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sparks/uploads') sent.grants++;
      if (request.method() === 'PUT') sent.files++;
    });
    let recordings = 0;
    let releaseSendingAgain = () => {};
    const sendingAgain = new Promise<void>((resolve) => (releaseSendingAgain = resolve));
    await page.route(/\/api\/sparks$/, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      if (recordings++ > 0) return sendingAgain.then(() => route.continue());
      const body = { code: 'RATE_LIMITED', message: 'Your earlier sparks are still being saved. Please try again in 5 seconds.', retryAfterSeconds: 5 };
      return route.fulfill({ status: 429, contentType: 'application/json', headers: { 'retry-after': '5' }, body: JSON.stringify(body) });
    });
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor();
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('It could not be sent just now. It will upload automatically in a moment.').waitFor();
    await page.getByTestId('pending-sparks').waitFor();
    await waitUntilTrue(
      page,
      `[...document.querySelectorAll('[data-sonner-toast]')].every((toast) => getComputedStyle(toast).opacity === '1' && toast.getAnimations().length === 0)`,
    );
    await saveScreenshot(page, 'client-app-sent-again-phone');
    releaseSendingAgain();
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    // The first recording refused, the outbox's second taken, with the file the first try stored.
    expect({ recordings, recorded: await sparkRows(userId), ...sent }).toEqual({ recordings: 2, recorded: 1, grants: 1, files: 1 });
    await context.close();
  });

  it('sends a capture made while the outbox was busy sending an older one after it, and again when Spark could not take it', async () => {
    const { context, page, userId } = await clientWithCaptureKeptOffline();

    // Back online, the outbox sends the older spark on a slow connection; a new capture goes behind it, and Spark
    // cannot take that one at its first tries, behind the older one or on its own.
    const releaseOlderFile = await holdBack(page, /\/incoming\//, 'PUT');
    const olderFileOnItsWay = page.waitForRequest((request) => request.method() === 'PUT');
    await context.setOffline(false);
    await olderFileOnItsWay;
    let grants = 0;
    await page.route(/\/api\/sparks\/uploads$/, (route) => (grants++ < 2 ? route.fulfill(serviceUnavailable) : route.continue()));
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('Uploading...').first().waitFor();
    releaseOlderFile();
    await page.getByText('It could not be sent just now. It will upload automatically in a moment.').waitFor();

    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '2'`);
    expect(await sparkRows(userId)).toBe(2);
    await context.close();
  });

  it('dates a spark by when it was taken offline, so a capture that uploads the next day still extends the streak', async () => {
    const { context, page, userId } = await signedInClient(browser());
    const zone = 'America/New_York';
    const takenAt = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const dayBefore = localDate(new Date(takenAt.getTime() - 24 * 60 * 60 * 1000), zone);
    await db.query('UPDATE progress.user_progress SET spark_count = 4, streak_count = 4, last_spark_date = $2 WHERE user_id = $1', [userId, dayBefore]);
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();

    // Taken a day ago, offline; the phone comes back online only now.
    await context.setOffline(true);
    await page.clock.setFixedTime(takenAt);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByTestId('pending-sparks').waitFor();
    await page.clock.setFixedTime(new Date());
    await context.setOffline(false);
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });

    // Dated back by as long as the phone held it, by the phone's own clock.
    const { rows } = await db.query('SELECT created_at FROM progress.sparks WHERE user_id = $1', [userId]);
    expect(rows).toHaveLength(1);
    expect(Math.abs(rows[0].created_at.getTime() - takenAt.getTime())).toBeLessThan(60_000);
    const progress = await db.query('SELECT streak_count, last_spark_date::text FROM progress.user_progress WHERE user_id = $1', [userId]);
    expect(progress.rows).toEqual([{ streak_count: 5, last_spark_date: localDate(takenAt, zone) }]);
    await waitUntilTrue(page, `document.querySelector('[data-testid=streak]')?.textContent === '5'`);
    await context.close();
  });

  it('records an older spark still waiting before a new capture, so the streak counts both days', async () => {
    const { context, page, userId } = await signedInClient(browser());
    const zone = 'America/New_York';
    const takenAt = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const dayBefore = localDate(new Date(takenAt.getTime() - 24 * 60 * 60 * 1000), zone);
    // No pause days to cover a day that looks missed.
    await db.query('UPDATE progress.user_progress SET spark_count = 4, streak_count = 4, last_spark_date = $2, pause_days_allowance = 0 WHERE user_id = $1', [
      userId,
      dayBefore,
    ]);
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    await context.setOffline(true);
    await page.clock.setFixedTime(takenAt);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByTestId('pending-sparks').waitFor();
    await page.clock.setFixedTime(new Date());

    // Back online, Spark cannot take yesterday's spark at its first try; today's is captured before the next.
    let recordings = 0;
    await page.route(/\/api\/sparks$/, (route) =>
      route.request().method() === 'POST' && recordings++ === 0 ? route.fulfill(serviceUnavailable) : route.continue(),
    );
    const olderRefused = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sparks' && response.status() === 503);
    await context.setOffline(false);
    await olderRefused;
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();

    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '6'`);
    const progress = await db.query('SELECT streak_count, last_spark_date::text FROM progress.user_progress WHERE user_id = $1', [userId]);
    expect(progress.rows).toEqual([{ streak_count: 6, last_spark_date: localDate(new Date(), zone) }]);
    await context.close();
  });

  it('records a new capture at once when an older one waiting on the device cannot be sent', async () => {
    const { context, page, userId } = await clientWithCaptureKeptOffline();
    // Spark fails every try of the older spark (a file its server cannot handle), never the new one's.
    const [older] = await page.evaluate<string[]>(`new Promise((resolve) => {
      indexedDB.open('spark-client-app').onsuccess = (event) => {
        const all = event.target.result.transaction('pending-sparks').objectStore('pending-sparks').getAllKeys();
        all.onsuccess = () => resolve(all.result);
      };
    })`);
    await page.route(/\/api\/sparks\/uploads$/, (route) =>
      route.request().postData()?.includes(String(older)) ? route.fulfill({ ...serviceUnavailable, status: 500 }) : route.continue(),
    );
    await context.setOffline(false);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor({ state: 'detached' });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect({ recorded: await sparkRows(userId), waiting: await page.getByTestId('pending-sparks').textContent() }).toEqual({
      recorded: 1,
      waiting: expect.stringContaining('1 spark waiting to upload'),
    });
    await context.close();
  });

  it('uploads at once a capture the device has no room to keep, and says so when it can be neither kept nor sent', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    // A phone whose storage is full: the browser refuses every write to IndexedDB.
    const devtools = await context.newCDPSession(page);
    await devtools.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 1 });

    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    const uploaded = page.getByText('Your first spark! Your evolution has officially begun.');
    await uploaded.waitFor();
    expect(await sparkRows(userId)).toBe(1);
    await uploaded.waitFor({ state: 'hidden' });

    await context.setOffline(true);
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('This device has no room to keep your spark until it can be sent. Please try again when you are online.').waitFor();
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor();
    await saveScreenshot(page, 'client-app-not-kept-phone');
    await expect(page.getByTestId('pending-sparks').count()).resolves.toBe(0);
    await context.setOffline(false);
    await context.close();
    expect(await sparkRows(userId)).toBe(1);
  });

  it('records once a capture the device could not keep and whose answer was lost, when the client presses again', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();
    const devtools = await context.newCDPSession(page);
    await devtools.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 1 });
    let grants = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sparks/uploads') grants++;
    });
    // The recording reaches Spark, which records it, but the connection drops before its answer arrives.
    let recordings = 0;
    await page.route(/\/api\/sparks$/, async (route) => {
      if (route.request().method() !== 'POST' || recordings++ > 0) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });

    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByText('This device has no room to keep your spark until it can be sent. Please try again when you are online.').waitFor();
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor({ state: 'detached' });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect({ recorded: await sparkRows(userId), recordings, grants }).toEqual({ recorded: 1, recordings: 2, grants: 1 });
    await context.close();
  });

  it('tells the client their storage is full when a capture is refused, and keeps the dialog open', async () => {
    for (const viewport of [phoneViewport, laptopViewport]) {
      const { context, page, userId } = await signedInClient(browser(), { viewport });
      await fillStorage(userId);
      await page.goto('/app');
      await page.getByRole('button', { name: 'or add a note with your capture' }).click();
      await page.getByTestId('file-input').setInputFiles(photo());
      await page.getByLabel('Note').fill('Stretching after the long run');
      await page.getByRole('button', { name: 'Capture Spark' }).click();
      await page.getByText('Upload failed').waitFor();
      await page.getByText(/^Your storage is full: your sparks already use 2 GB of your 2 GB, so this one was not saved\./).waitFor();
      await expect(page.getByRole('dialog', { name: 'Capture Your Spark' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Capture Spark' }).isEnabled()).resolves.toBe(true);
      expect(await sparkRows(userId)).toBe(0);
      // The toast slides in: picture it once it stands still.
      await waitUntilTrue(
        page,
        `[...document.querySelectorAll('[data-sonner-toast]')].every((toast) => getComputedStyle(toast).opacity === '1' && toast.getAnimations().length === 0)`,
      );
      await saveScreenshot(page, `client-app-storage-full-${viewport === phoneViewport ? 'phone' : 'laptop'}`);
      await context.close();
    }
  });

  it('drops a spark the server refuses for a full storage from the offline outbox, says why, and does not retry it', async () => {
    const { context, page, userId } = await clientWithCaptureKeptOffline();
    await fillStorage(userId);
    // The storage is asked first, so the photo is never sent.
    let grants = 0;
    let stored = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sparks/uploads') grants++;
      if (request.method() === 'PUT') stored++;
    });
    await context.setOffline(false);
    await page.getByText(/^Your storage is full/).waitFor({ timeout: 30_000 });
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached' });
    // Nothing is left on the device to retry: after a reload (which uploads whatever waits) none is pending.
    await page.reload();
    await page.getByTestId('spark-count').waitFor();
    await expect(page.getByTestId('pending-sparks').count()).resolves.toBe(0);
    expect({ grants, stored }).toEqual({ grants: 1, stored: 0 });
    expect(await sparkRows(userId)).toBe(0);
    await context.close();
  });

  it('shows the coach’s latest pinned note', async () => {
    const { context, page, userId } = await signedInClient(browser(), { viewport: laptopViewport });
    await db.query(
      `INSERT INTO progress.coach_notes (user_id, coach_id, message, is_pinned, created_at) VALUES ($1, $2, 'Older note', true, now() - interval '1 day')`,
      [userId, randomUUID()],
    );
    await db.query(`INSERT INTO progress.coach_notes (user_id, coach_id, message, is_pinned) VALUES ($1, $2, 'Great consistency this week, Maya!', true)`, [
      userId,
      randomUUID(),
    ]);
    await page.goto('/app');
    await expect(page.getByTestId('coach-note').textContent()).resolves.toContain('Great consistency this week, Maya!');
    await saveScreenshot(page, 'client-app-home-laptop');
    await context.close();
  });

  it('leaves nothing of the client on the device after they sign out: no API answer in Cache Storage, no spark_* key', async () => {
    const { context, page } = await signedInClient(browser());
    await openHomeThroughServiceWorker(page);
    await expect(sparkKeysStored(page)).resolves.toContain('spark_client_home');
    // What onboarding leaves behind: the DITL it asked for (the draft is covered by onboarding.e2e-spec.ts).
    await page.evaluate(`localStorage.setItem('spark_ditl_generation_id', '${randomUUID()}')`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(cachedApiAnswers(page)).resolves.toEqual([]);
    await expect(sparkKeysStored(page)).resolves.toEqual([]);
    await context.close();
  });

  it('opens offline from the snapshot the app saved for this client, with no API answer cached by the service worker', async () => {
    const { context, page } = await signedInClient(browser());
    await openHomeThroughServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline: showing your last saved progress').waitFor();
    await expect(page.getByTestId('greeting').textContent()).resolves.toMatch(/, Maya$/);
    await expect(page.getByTestId('evolution').textContent()).resolves.toBe('Evolution 1');
    await expect(page.getByText('Run a half marathon by spring').isVisible()).resolves.toBe(true);
    await expect(cachedApiAnswers(page)).resolves.toEqual([]);
    await context.close();
  });

  it('opened offline, signs back in by itself when the network returns and sends what was captured meanwhile', async () => {
    const { context, page, userId } = await signedInClient(browser());
    await openHomeThroughServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline: showing your last saved progress').waitFor();
    await page.getByTestId('quick-capture-input').setInputFiles(photo());
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await page.getByTestId('pending-sparks').waitFor();

    await context.setOffline(false);
    await page.getByTestId('pending-sparks').waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntilTrue(page, `document.querySelector('[data-testid=spark-count]')?.textContent === '1'`);
    expect(await sparkRows(userId)).toBe(1);
    expect(await page.getByRole('heading', { name: 'Not authenticated' }).count()).toBe(0);
    await context.close();
  });

  it('deletes the home answers an earlier service worker kept in its "spark-home" cache', async () => {
    const context = await visitorContext(browser(), { viewport: phoneViewport });
    const page = await context.newPage();
    // The public pages register no service worker: this cache is what the earlier version left on the device.
    await page.goto('/');
    await page.evaluate(`caches.open('spark-home').then((cache) => cache.put('/api/progress/me', new Response('{"progress":null}')))`);
    await expect(cachedApiAnswers(page)).resolves.toHaveLength(1);
    await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true')`);
    await page.goto('/app');
    await page.getByText('Not authenticated').waitFor();
    await waitUntilTrue(page, `caches.has('spark-home').then((kept) => !kept)`, 30_000);
    await context.close();
  });

  it('sends a visitor without the onboarding flag to /interest, and one without a session sees "Not authenticated"', async () => {
    const context = await visitorContext(browser(), { viewport: phoneViewport });
    const page = await context.newPage();
    await page.goto('/app');
    await page.waitForURL((url) => url.pathname === '/interest');
    await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true')`);
    await page.goto('/app');
    await page.getByText('Not authenticated').waitFor();
    await expect(page.getByText('Please sign in to continue').isVisible()).resolves.toBe(true);
    await context.close();
  });
  it("opens /app by itself once back online when the page's code did not arrive, instead of the router's page for developers", async () => {
    const { context, page } = await signedInClient(browser());
    // The first visit to /app, before the service worker keeps the app: its screen's code fails on the way.
    const homeCode = '**/assets/client-home-page-*.js';
    await page.route(homeCode, (route) => route.abort('internetdisconnected'));
    await page.goto('/app');
    await page.getByRole('heading', { name: 'Spark could not open this page' }).waitFor();
    await page.getByText('It opens by itself as soon as you are back online.').waitFor();
    await expect(page.getByText('Hey developer').count()).resolves.toBe(0);
    await saveScreenshot(page, 'client-home-not-loaded-phone');

    await page.unroute(homeCode);
    await context.setOffline(true);
    await context.setOffline(false);
    await page.getByTestId('spark-count').waitFor();
    await context.close();
  });
});
