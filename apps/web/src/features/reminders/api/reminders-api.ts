import {
  pushConfigSchema,
  type PushSubscriptionJson,
  reminderSettingsSchema,
  type UpdateReminderSettingsBody,
  unsubscribeRemindersResponseSchema,
} from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const reminderKeys = { settings: ['reminders'] as const, pushConfig: ['reminders', 'push-config'] as const };

export const remindersApi = {
  settings: async () => reminderSettingsSchema.parse(await apiRequest<unknown>('GET', '/progress/me/reminders')),
  update: async (body: UpdateReminderSettingsBody) => reminderSettingsSchema.parse(await apiRequest<unknown>('PUT', '/progress/me/reminders', body)),
  setPushSubscription: async (subscription: PushSubscriptionJson | null) =>
    reminderSettingsSchema.parse(await apiRequest<unknown>('PUT', '/progress/me/push-subscription', { subscription })),
  pushConfig: async () => pushConfigSchema.parse(await apiRequest<unknown>('GET', '/reminders/push-config', undefined, { authenticate: false })),
  unsubscribe: async (token: string) =>
    unsubscribeRemindersResponseSchema.parse(
      await apiRequest<unknown>('POST', `/reminders/unsubscribe?token=${encodeURIComponent(token)}`, undefined, { authenticate: false }),
    ),
};

/** The browser's key format for `applicationServerKey`: the VAPID public key is base64url. */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Asks for permission, subscribes this device with the server's key and returns the subscription to store. */
export async function subscribeThisDevice(vapidPublicKey: string): Promise<PushSubscriptionJson> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications are blocked for Spark in this browser.');
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
  const json = subscription.toJSON();
  return { endpoint: json.endpoint ?? '', keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}
