// After `import 'agent-chat'`, listeners on the element, any element, the document and the
// window know each event's detail (HTMLElementEventMap, DocumentEventMap, WindowEventMap).
import 'agent-chat';
import type { AgentChat, ErrorEventDetail, ThreadDetail } from 'agent-chat';

document.addEventListener('agent-chat-thread', (e) => {
  const id: string | null = e.detail.threadId;
  const detail: ThreadDetail = e.detail;
  // @ts-expect-error a thread event has no text
  void e.detail.text;
  void [id, detail];
});
window.addEventListener('agent-chat-error', (e) => {
  const detail: ErrorEventDetail = e.detail;
  const retry: boolean = e.detail.retryable;
  void [detail, retry];
});
const chat = document.querySelector('agent-chat');
chat?.addEventListener('agent-chat-message', (e) => e.detail.message.text.toUpperCase());
document.body.addEventListener('agent-chat-card-click', (e) => e.detail.card);
const made: AgentChat = document.createElement('agent-chat');
void made.send('hi');
