// Minimal client for the bench's baseline pages: token exchange, then one streamed turn
// read with fetch + a tiny SSE parser. `onToken(delta)` runs synchronously for every
// token frame as it is parsed; `onMessage(message)` for the final frame. `threadId`
// continues a thread (else each turn starts one).
export async function accessToken(key) {
  const tokenResponse = await fetch('/management/v1/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publishable_key: key }),
  });
  return (await tokenResponse.json()).access_token;
}

/** A thread's messages, as the widget reads them when it opens a thread. */
export async function transcript(key, threadId) {
  const token = await accessToken(key);
  const response = await fetch(`/messaging/v1/threads/${threadId}/messages`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`transcript failed: ${response.status}`);
  return response.json();
}

export async function streamTurn({ key, text, threadId, onToken, onMessage }) {
  const token = await accessToken(key);
  const response = await fetch('/messaging/v1/messages/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ text, user_id: 'bench-user', ...(threadId ? { thread_id: threadId } : {}) }),
  });
  if (!response.ok || !response.body) throw new Error(`stream failed: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let data = '';
      for (const line of block.split('\n')) if (line.startsWith('data:')) data += line.slice(line[5] === ' ' ? 6 : 5);
      if (!data) continue;
      if (data === '[DONE]') return;
      const frame = JSON.parse(data);
      if (frame.type === 'event') onToken(frame.data.text);
      else if (frame.type === 'message') onMessage(frame.data);
    }
  }
}
