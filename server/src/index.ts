/**
 * agent-chat-server as a library: build the server in code and mount it on your own Node
 * HTTP server, or hand its routes to another framework's adapter. `agent-chat-server` (the
 * bin, main.ts) is the same server configured from the environment.
 */
export { createApp, createReferenceServer, DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY, faultsFromEnv } from './app.js';
export type { AppOptions, ReferenceServer } from './app.js';
export { isReferencePath, listenFromEnv, toNodeMiddleware } from './http/node.js';
export { hostsFromEnv } from './http/hosts.js';
export { DEFAULT_ALLOWED_ORIGINS, originsFromEnv } from './http/origins.js';
export { organizationKeyFromEnv } from './auth/management-auth.js';
export { modelSettingsFromEnv, type ModelSettings } from './agents/model-agent.js';
export { SESSION_PATH, type SessionServer, type UpgradeServer } from './messaging/session.js';
