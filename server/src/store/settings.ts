import type { Queryable } from './db.js';

/**
 * Server-wide values kept with the data (the port): the signing key a database shared by
 * several instances hands to each when no `SIGNING_KEY` is set, the seed's version.
 */
export interface SettingsStore {
  get<T>(name: string): Promise<T | undefined>;
  /** Stores `value` unless `name` has one already; returns the one kept (first writer wins). */
  claim<T>(name: string, value: T): Promise<T>;
}

export class SqlSettingsStore implements SettingsStore {
  constructor(private readonly db: Queryable) {}

  async get<T>(name: string): Promise<T | undefined> {
    const { rows } = await this.db.query<{ value: T }>('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0]?.value;
  }

  async claim<T>(name: string, value: T): Promise<T> {
    await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2::jsonb) ON CONFLICT (name) DO NOTHING', [
      name,
      JSON.stringify(value),
    ]);
    return (await this.get<T>(name))!;
  }
}
