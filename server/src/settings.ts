import { agentsFromFile } from './agents/config.js';
import { faultsFromEnv } from './app.js';
import { modelSettingsFromEnv } from './agents/model-agent.js';
import { organizationKeyFromEnv } from './auth/management-auth.js';
import { signingFromEnv } from './auth/signing.js';
import { hostsFromEnv } from './http/hosts.js';
import { isLoopback, listenFromEnv } from './http/node.js';
import { originsFromEnv } from './http/origins.js';
import { databaseFromEnv } from './store/db.js';

/**
 * `agent-chat-server`'s settings, read from the environment (README.md "Configuration"),
 * each checked at start: a setting that makes no sense stops the start with a message
 * naming it.
 */

/**
 * Production (`NODE_ENV=production`) on an address other machines reach needs the secrets
 * set, not made up: a key made at start changes at every restart (logging builders out, or
 * every visitor with it), and the dev defaults are public. Returns what is missing.
 */
export function missingForProduction(env: NodeJS.ProcessEnv, hostname: string): string[] {
  if (isLoopback(hostname)) return [];
  const missing: string[] = [];
  if (!env['ORGANIZATION_API_KEY']?.trim()) missing.push('ORGANIZATION_API_KEY');
  if (!env['SIGNING_KEY']?.trim() && !env['SIGNING_KEY_FILE']?.trim()) missing.push('SIGNING_KEY (or SIGNING_KEY_FILE)');
  return missing;
}

/** Every setting of the bin, from `env`; throws a message naming the first that is wrong. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const listen = listenFromEnv(env);
  const allowedOrigins = originsFromEnv(env);
  const production = env['NODE_ENV']?.trim() === 'production';
  const model = modelSettingsFromEnv(env);
  if (production) {
    const missing = missingForProduction(env, listen.hostname);
    if (missing.length) {
      throw new Error(
        `Refusing to start in production on ${listen.hostname}, reachable from other machines, without ${missing.join(' and ')}: ` +
          'set them (the defaults are for development on this machine only).',
      );
    }
  }
  const agentsFile = env['AGENTS_FILE']?.trim();
  return {
    production,
    demo: flag('DEMO_AGENT', env) ?? !production,
    // The knobs: in production only if asked (and then refused by the server), else without a model.
    faults: production ? flag('REFERENCE_FAULTS', env) === true : faultsFromEnv(model, env),
    agents: agentsFile ? agentsFromFile(agentsFile) : undefined,
    listen,
    model,
    allowedOrigins,
    allowedHosts: hostsFromEnv(env, listen.hostname),
    database: databaseFromEnv(env),
    signing: signingFromEnv(env),
    organization: organizationKeyFromEnv(env, listen.hostname, allowedOrigins),
    graceMs: graceFromEnv(env),
    leaseMs: leaseFromEnv(env),
    trustProxy: flag('TRUST_PROXY', env) ?? false,
  };
}

/** `SHUTDOWN_GRACE_MS`: how long a stopping server lets running turns finish (default 10 s). */
function graceFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['SHUTDOWN_GRACE_MS']?.trim() || '10000';
  if (!/^\d{1,7}$/.test(raw)) throw new Error(`SHUTDOWN_GRACE_MS must be milliseconds (0 to 9999999), not "${raw}".`);
  return Number(raw);
}

/** `TURN_LEASE_MS`: how long a running turn's lease lasts unless renewed (default 30 s). */
function leaseFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env['TURN_LEASE_MS']?.trim();
  if (!raw) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 300) throw new Error(`TURN_LEASE_MS must be milliseconds (300 to 9999999), not "${raw}".`);
  return Number(raw);
}

/** A yes/no setting: `1`/`true`, `0`/`false`, or unset. */
function flag(name: string, env: NodeJS.ProcessEnv): boolean | undefined {
  const v = env[name]?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw new Error(`${name} must be 1 or 0, not "${env[name]}".`);
}
