import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SettingsStore } from '../store/settings.js';

/**
 * The keys access tokens (HS256) and list cursors are signed with. The current key signs;
 * it and each previous key verify, found by the token's `kid` header, so a key can be
 * rotated without logging anyone out: the new one in `SIGNING_KEY`, the old one in
 * `SIGNING_KEYS_PREVIOUS` until the last token it signed has expired (15 minutes for a
 * visitor's, an hour for a builder's).
 */
export interface Signing {
  current: SigningKey;
  /** Every key that verifies, the current one included, by `kid`. */
  byKid: ReadonlyMap<string, SigningKey>;
  /** Where the current key came from, for the start-up banner. */
  source: SigningSource;
}

export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

export type SigningSource = 'environment' | 'file' | 'data-dir' | 'database' | 'memory';

/** A key shorter than this is refused: HS256 wants at least its hash's 256 bits. */
export const MIN_KEY_CHARS = 32;

/** The name of the key a database shared by several instances keeps (settings). */
const SETTING = 'signing_key';

export const kidOf = (secret: Uint8Array): string => createHash('sha256').update(secret).digest('hex').slice(0, 16);

function key(text: string, what: string): SigningKey {
  const trimmed = text.trim();
  if (trimmed.length < MIN_KEY_CHARS)
    throw new Error(`${what} must be at least ${MIN_KEY_CHARS} characters (a random string, e.g. openssl rand -base64 48).`);
  const secret = new TextEncoder().encode(trimmed);
  return { kid: kidOf(secret), secret };
}

export const newKeyText = (): string => randomBytes(48).toString('base64url');

/** Where the signing key is to come from, read from the environment (`SIGNING_KEY`, `SIGNING_KEY_FILE`, `SIGNING_KEYS_PREVIOUS`). */
export interface SigningSettings {
  key?: string;
  keyFile?: string;
  previous?: string[];
}

export function signingFromEnv(env: NodeJS.ProcessEnv = process.env): SigningSettings {
  const previous = (env['SIGNING_KEYS_PREVIOUS'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return { key: env['SIGNING_KEY']?.trim() || undefined, keyFile: env['SIGNING_KEY_FILE']?.trim() || undefined, previous };
}

/** Whether the settings name a key (in the environment or a file) rather than leaving it to the server. */
export const namesKey = (settings: SigningSettings): boolean => !!(settings.key || settings.keyFile);

/**
 * The signing keys: `SIGNING_KEY`, else the file `SIGNING_KEY_FILE`, else one the server
 * keeps itself: in `<DATA_DIR>/signing-key` (made on first start, readable by its owner
 * only), in the database when it is a PostgreSQL server shared by several instances (the
 * first instance's key), or in memory for `memory://` (tokens die with the process).
 */
export async function resolveSigning(settings: SigningSettings, where: { dataDir?: string; settings?: SettingsStore }): Promise<Signing> {
  let current: SigningKey;
  let source: SigningSource;
  if (settings.key) {
    current = key(settings.key, 'SIGNING_KEY');
    source = 'environment';
  } else if (settings.keyFile) {
    current = key(readFileSync(settings.keyFile, 'utf8'), `SIGNING_KEY_FILE (${settings.keyFile})`);
    source = 'file';
  } else if (where.dataDir) {
    const file = `${where.dataDir}/signing-key`;
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      // `wx`: two processes starting on one folder at once keep the first one's key.
      try {
        writeFileSync(file, `${newKeyText()}\n`, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    chmodSync(file, 0o600);
    current = key(readFileSync(file, 'utf8'), file);
    source = 'data-dir';
  } else if (where.settings) {
    current = key(await where.settings.claim(SETTING, newKeyText()), 'the signing key kept in the database');
    source = 'database';
  } else {
    current = key(newKeyText(), 'a random key');
    source = 'memory';
  }
  const byKid = new Map<string, SigningKey>([[current.kid, current]]);
  for (const [i, text] of (settings.previous ?? []).entries()) {
    const previous = key(text, `SIGNING_KEYS_PREVIOUS (entry ${i + 1})`);
    if (!byKid.has(previous.kid)) byKid.set(previous.kid, previous);
  }
  return { current, byKid, source };
}
