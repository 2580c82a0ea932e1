/**
 * Branch relations between threads. A rerun (regenerate or edit) of turn `turn` of thread
 * `from` creates thread `to`, which shares `from`'s history before that turn and differs
 * from it there. The service does not record these relations for the widget, so they are
 * kept with the thread state and survive a reload.
 */
export interface BranchEvent {
  from: string;
  /** Index of the turn (its user message) among the thread's user messages, from 0. */
  turn: number;
  to: string;
}

/** `events` with a new relation, kept once per new thread. */
export function addBranch(events: readonly BranchEvent[], event: BranchEvent): BranchEvent[] {
  return events.some((e) => e.to === event.to) ? [...events] : [...events, event];
}
