const said = new Set<string>();

/**
 * Tells the page's developer about something the widget degraded or ignored: one console
 * line per message and page, however often it happens. The reader already sees the
 * degraded part (plain text, a default, a left-out card); the console says why.
 */
export function warnOnce(message: string, detail?: unknown): void {
  if (said.has(message)) return;
  said.add(message);
  console.warn(`<agent-chat>: ${message}`, ...(detail === undefined ? [] : [detail]));
}
