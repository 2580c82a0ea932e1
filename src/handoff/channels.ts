import type { Channel } from '../client/types.js';
import { warnOnce } from '../warn.js';

/** The channels a host offers for the WhatsApp/SMS hand-off (docs/protocol.md "Channel hand-off"). */

export const CHANNELS: readonly Channel[] = ['whatsapp', 'sms'];

/** Brand names: the same in every language. */
export const CHANNEL_NAMES: Record<Channel, string> = { whatsapp: 'WhatsApp', sms: 'SMS' };

/**
 * The `channels` attribute as a list: trimmed, lower-cased, duplicates dropped, in the
 * host's order. Unknown names are skipped with a warning rather than an error, so a typo
 * costs one channel, not the widget.
 */
export function parseChannels(value: string | null | undefined, warn: (message: string) => void = warnOnce): Channel[] {
  const channels: Channel[] = [];
  for (const raw of (value ?? '').split(',')) {
    const name = raw.trim().toLowerCase();
    if (!name) continue;
    if (!(CHANNELS as readonly string[]).includes(name)) {
      warn(`channel "${raw.trim()}" is not one of ${CHANNELS.join(', ')}; ignored.`);
      continue;
    }
    if (!channels.includes(name as Channel)) channels.push(name as Channel);
  }
  return channels;
}
