/**
 * Prompt recall, a lazy chunk fetched when the text field takes focus: in an empty field,
 * ArrowUp brings back the last question this reader sent in the shown conversation (never
 * another sender's from the transcript, never one over `RECALL_CHARS`), and again for each
 * older one; ArrowDown goes forward, and past the newest the field is empty again. What the
 * reader typed, or a recalled question they changed, is a draft: there the arrows keep
 * moving the caret, and nothing typed is ever replaced.
 */
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';

/** The question the field shows: its place among the questions and its text as recalled. */
export interface Recalled {
  readonly at: number;
  readonly text: string;
}

/**
 * The longest question recall brings back. A longer one is skipped, not cut: a cut question
 * is one the reader never wrote, and ArrowUp then Enter would send it; and a pasted document
 * in the field is not what the key is for.
 */
export const RECALL_CHARS = 4_000;

/**
 * The questions of the shown branch this reader sent, oldest first: written here (a
 * question of this browser has no `senderId`), or by `userId` as the transcript says; not
 * another sender's, nor one without text (an image alone) or longer than `RECALL_CHARS`.
 */
export const questions = (messages: readonly ChatMessage[], userId: string): string[] =>
  messages.flatMap((m) =>
    m.role === 'user' && m.text && m.text.length <= RECALL_CHARS && (m.senderId ?? userId) === userId ? [m.text] : [],
  );

/**
 * One press of ArrowUp (`back`) or ArrowDown with `field` in the text field and `was` the
 * last recall: what the field shows next and the recall it is, or `null` when the key keeps
 * its own meaning (a draft, or nothing further that way).
 */
export function step(
  asked: readonly string[],
  field: string,
  was: Recalled | null,
  back: boolean,
): { text: string; recalled: Recalled | null } | null {
  // Still the question recalled, unchanged, and still where it was (not another conversation's).
  const at = was && was.text === field && asked[was.at] === field ? was.at : field ? -1 : asked.length;
  if (at < 0) return null;
  const next = back ? at - 1 : at + 1;
  if (next < 0 || next > asked.length) return null;
  const text = asked[next] ?? '';
  return { text, recalled: text ? { at: next, text } : null };
}

/** Each widget's last recall (by its conversation's controller). */
const last = new WeakMap<object, Recalled | null>();

/**
 * The text field's keydown: recalls when the key is a plain ArrowUp or ArrowDown and the
 * field is empty or shows a recalled question unchanged. Puts the question in the field and
 * says so; the composer then takes it as typed (the draft, the field's height).
 */
export function recall(event: KeyboardEvent, chat: { readonly state: ConversationState; readonly currentUserId: string }): boolean {
  const back = event.key === 'ArrowUp';
  if ((!back && event.key !== 'ArrowDown') || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || event.isComposing)
    return false;
  const field = event.target as HTMLTextAreaElement;
  const moved = step(questions(chat.state.messages, chat.currentUserId), field.value, last.get(chat) ?? null, back);
  if (!moved) return false;
  event.preventDefault();
  last.set(chat, moved.recalled);
  field.value = moved.text;
  return true;
}
