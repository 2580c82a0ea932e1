/**
 * A timeout whose deadline moves (every frame of a stream pushes it back) without a timer
 * per move: `deadline()` is read when the one timer fires, which sleeps again for what is
 * left, or calls `expire`. A stream of a thousand frames a second costs a thousand reads
 * of a clock, not a thousand clearTimeout/setTimeout pairs.
 */
export function countdown(deadline: () => number, expire: () => void): { stop(): void; restart(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    const left = deadline() - performance.now();
    if (left <= 0) expire();
    else timer = setTimeout(check, left);
  };
  const stop = (): void => clearTimeout(timer);
  check();
  // `restart()` after the deadline moved earlier (a shorter wait begins): the sleeping timer
  // would only notice at the old, later time.
  return { stop, restart: () => (stop(), check()) };
}
