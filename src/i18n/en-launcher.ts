/** The texts the shell shows before the panel arrives: the launcher and its load-failure notice. */
export interface LauncherStrings {
  openChat: string;
  /** The launcher's name while a reply is unread (the dot alone is not read out). */
  openChatUnread: string;
  close: string;
  unread: string;
  retry: string;
  /** A chunk of the widget's code could not be fetched or did not run (the panel, a feature); Retry asks again. */
  loadFailed: string;
}

/**
 * Their English, which ships with the shell; strings.ts builds the full English table (in
 * the panel's chunk) on top of it.
 */
export const enLauncher: LauncherStrings = {
  openChat: 'Open chat',
  openChatUnread: 'Open chat, new message',
  close: 'Close chat',
  unread: 'New message',
  retry: 'Retry',
  loadFailed: 'Part of the chat could not load. Check your connection and try again.',
};
