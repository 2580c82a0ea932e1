import type { Turn } from './turn.js';

/**
 * The turns this process is running, by interaction id and by thread. A turn stays here
 * until its end is recorded (then a resume replays it from the stores' log); while it is
 * here, followers read its frames from memory as they come.
 */
export class LiveTurns {
  private readonly byId = new Map<string, Turn>();
  private readonly byThread = new Map<string, Turn>();

  add(turn: Turn): void {
    this.byId.set(turn.interactionId, turn);
    this.byThread.set(turn.threadId, turn);
  }

  remove(turn: Turn): void {
    if (this.byId.get(turn.interactionId) === turn) this.byId.delete(turn.interactionId);
    if (this.byThread.get(turn.threadId) === turn) this.byThread.delete(turn.threadId);
  }

  get(id: string): Turn | undefined {
    return this.byId.get(id);
  }

  /** The thread's newest turn running here. */
  ofThread(threadId: string): Turn | undefined {
    return this.byThread.get(threadId);
  }

  all(): Turn[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }
}
