// The runtime half of the wire module: the few checks both sides run on the wire's values.
// The types are in index.d.ts (one module, no build step: both packages import it as is).

/** 24 hexadecimal characters: thread, interaction, agent and version ids. */
export const HEX_ID_PATTERN = /^[0-9a-fA-F]{24}$/;

/** Whether `value` is a thread, interaction, agent or version id. */
export function isHexId(value) {
  return typeof value === 'string' && HEX_ID_PATTERN.test(value);
}

/** A plain JSON object (not null, not an array): what every wire object must be. */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
