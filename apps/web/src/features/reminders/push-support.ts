// Kept apart from reminders-api.ts, which brings the reminders' schemas: sign-out needs only these, on public pages too.

export const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * Unsubscribes this browser from push, so a shared device stops showing a person's reminders once they sign out. The
 * server learns it from the push service (gone) at the next reminder and e-mails from then on; it is not asked now,
 * as the subscription it keeps may be another device's of the same person.
 */
export async function unsubscribeThisDevice(): Promise<void> {
  if (!pushSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    await (await registration?.pushManager.getSubscription())?.unsubscribe();
  } catch {
    // A browser that cannot tell or unsubscribe has nothing this sign-out could do better.
  }
}
