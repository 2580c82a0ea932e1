import type { Channel } from '../client/types.js';

/**
 * The channels a host offers for the WhatsApp/SMS hand-off (CONTRACT.md "Channel
 * hand-off"). The hand-off itself (`src/state/hand-off.ts`, rendered by
 * `src/render/channel-form.ts`) is a lazy chunk, loaded when the form is first opened.
 */

export const CHANNELS: readonly Channel[] = ['whatsapp', 'sms'];

/** Brand names: the same in every language. */
export const CHANNEL_NAMES: Record<Channel, string> = { whatsapp: 'WhatsApp', sms: 'SMS' };

/**
 * The `channels` attribute as a list: trimmed, lower-cased, duplicates dropped, in the
 * host's order. Unknown names are skipped with a warning rather than an error, so a typo
 * costs one channel, not the widget.
 */
export function parseChannels(value: string | null | undefined, warn: (message: string) => void = console.warn): Channel[] {
  const channels: Channel[] = [];
  for (const raw of (value ?? '').split(',')) {
    const name = raw.trim().toLowerCase();
    if (!name) continue;
    if (!(CHANNELS as readonly string[]).includes(name)) {
      warn(`<agent-chat>: channel "${raw.trim()}" is not one of ${CHANNELS.join(', ')}; ignored.`);
      continue;
    }
    if (!channels.includes(name as Channel)) channels.push(name as Channel);
  }
  return channels;
}
