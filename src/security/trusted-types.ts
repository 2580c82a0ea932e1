/**
 * The widget's one Trusted Types policy. Hosts whose CSP has a `trusted-types` directive
 * list its name (README, SECURITY.md); it signs only what DOMPurify parses (inertly) or
 * produced, and single character references (markdown/entities.ts).
 */

/** Name of the Trusted Types policy; hosts with a `trusted-types` CSP directive allow it. */
export const TRUSTED_TYPES_POLICY_NAME = 'agent-chat';

/** TrustedHTML when the browser has Trusted Types, else a plain string. */
export type SafeHtml = string | { toString(): string };

interface TrustedTypesFactory {
  createPolicy(
    name: string,
    rules: { createHTML: (s: string) => string; createScriptURL: (s: string) => string },
  ): { createHTML(s: string): SafeHtml; createScriptURL(s: string): unknown };
}
type Policy = ReturnType<TrustedTypesFactory['createPolicy']>;

let policy: Policy | null | undefined;

// Identity policy, kept private to this module: it only ever signs strings that DOMPurify
// parses (inertly) or produced. Created lazily so pages without markdown never create it;
// creation fails when the host's CSP does not list the name, or when a second copy of the
// widget already took it. Then we fall back to strings (fine unless TT is enforced).
export function trustedPolicy(): Policy | null {
  if (policy === undefined) {
    const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
    try {
      policy = factory ? factory.createPolicy(TRUSTED_TYPES_POLICY_NAME, { createHTML: (s) => s, createScriptURL: () => '' }) : null;
    } catch {
      policy = null;
    }
  }
  return policy;
}
