import { isObject } from './errors.js';
import type { Message } from './types.js';

/**
 * Light shape checks of what the service returns: enough that the UI can rely on the
 * fields it reads without crashing, not a full schema (no validator in the bundle).
 */
export function isMessage(value: unknown): value is Message {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.text === 'string' &&
    isObject(value.sender) &&
    typeof value.sender.type === 'string' &&
    (value.cards === undefined || Array.isArray(value.cards)) &&
    (value.followup_suggestions === undefined || Array.isArray(value.followup_suggestions))
  );
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
