// Bench harness, loaded first (classic script) by every bench page. It observes, it does
// not change what a page does:
// - long tasks (> 50 ms) from page load on, in `window.__bench.longTasks` (summed up by
//   `__bench.longTasksSince(t)`);
// - fetch() is wrapped so the moment the chunk carrying the final `message` frame of an
//   SSE stream arrives is recorded in `__bench.messageFrameAt` (same for every page, so the
//   widget, the floor and the naive renderer are timed from the same event), and the first
//   token frame's in `__bench.firstTokenAt` (unless set: a page zeroes it before a turn).
(() => {
  const bench = (window.__bench = { longTasks: [], messageFrameAt: 0, firstTokenAt: 0, frames: 0, slowFrames: [] });
  // Long animation frames (Chromium) say which callbacks a slow frame ran: the reader of
  // the stream, an animation-frame render, a chunk's arrival.
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) {
        if (f.duration > 50)
          bench.slowFrames.push({
            start: f.startTime,
            duration: f.duration,
            scripts: f.scripts.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`),
          });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    /* no long-animation-frame support */
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    /* no longtask support */
  }
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || !response.body) return response;
    const decoder = new TextDecoder();
    let tail = '';
    const probe = new TransformStream({
      transform(chunk, controller) {
        const text = tail + decoder.decode(chunk, { stream: true });
        if (text.includes('"type":"message"')) bench.messageFrameAt = performance.now();
        if (!bench.firstTokenAt && text.includes('"type":"event"')) bench.firstTokenAt = performance.now();
        tail = text.slice(-32);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(probe), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  /** Long tasks that started at `since` (a performance.now()) or later: how many, the longest. */
  bench.longTasksSince = (since) => {
    const tasks = bench.longTasks.filter((t) => t.start >= since - 1);
    return { count: tasks.length, longest: Math.max(0, ...tasks.map((t) => t.duration)) };
  };
  /** Resolves at the next animation frame callback, with its performance.now(). */
  bench.nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
})();
