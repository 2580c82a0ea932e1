export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** ObjectId-like: 4 bytes of seconds then 8 random bytes, so ids sort roughly by creation. */
export function newHexId(): string {
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomHex(8);
}

export function newRequestId(): string {
  return `req_${randomHex(12)}`;
}
