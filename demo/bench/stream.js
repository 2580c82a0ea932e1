// Minimal client for the bench's baseline pages: token exchange, then one streamed turn
// read with fetch + a tiny SSE parser. `onToken(delta)` runs synchronously for every
// token frame as it is parsed; `onMessage(message)` for the final frame.
export async function streamTurn({ key, text, onToken, onMessage }) {
  const tokenResponse = await fetch('/management/v1/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publishable_key: key }),
  });
  const { access_token: token } = await tokenResponse.json();
  const response = await fetch('/messaging/v1/messages/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ text, user_id: 'bench-user' }),
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
