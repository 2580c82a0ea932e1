import { z } from 'zod';
import { HEX_ID_PATTERN } from '@agent-chat/wire';

/** Limits the reference leaves open; chosen to be generous for people, tight for abuse. */
export const MAX_TEXT_CHARS = 4000;
export const MAX_BODY_BYTES = 64 * 1024;
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export const HEX_ID = HEX_ID_PATTERN;

export const hexId = z.string({ error: 'Must be a string.' }).regex(HEX_ID_PATTERN, {
  error: 'Must be 24 hexadecimal characters.',
});

/**
 * Fields the service removed. Sending one is a client bug worth failing loudly on (the
 * reference requires 422 for `agent_id`), so they are declared as "must be absent".
 */
const removed = (why: string) => z.never({ error: why }).optional();
const NO_AGENT_ID = removed('agent_id is not accepted: the access token identifies the agent.');

const text = z
  .string({ error: 'Required, a string.' })
  .min(1, { error: 'Must not be empty.' })
  .max(MAX_TEXT_CHARS, { error: `At most ${MAX_TEXT_CHARS} characters.` });

const userId = z
  .string({ error: 'Required, a string.' })
  .min(1, { error: 'Must not be empty.' })
  .max(256, { error: 'At most 256 characters.' });

const imageUrl = z
  .url({ protocol: /^https?$/, error: 'Must be an absolute http(s) URL.' })
  .max(2048, { error: 'At most 2048 characters.' });

const jsonObject = z.record(z.string(), z.unknown(), { error: 'Must be a JSON object.' });

export const agentVariablesSchema = z.object(
  { static: jsonObject.optional(), dynamic: jsonObject.optional() },
  { error: 'Must be an object with optional `static` and `dynamic` objects.' },
);

export const sendBodySchema = z.object(
  {
    text,
    user_id: userId,
    thread_id: hexId.optional(),
    image_url: imageUrl.optional(),
    agent_variables: agentVariablesSchema.optional(),
    agent_id: NO_AGENT_ID,
  },
  { error: 'The body must be a JSON object.' },
);
export type SendBody = z.infer<typeof sendBodySchema>;

export const rerunBodySchema = z.object(
  {
    interaction_id: hexId,
    text,
    user_id: userId.optional(),
    image_url: imageUrl.optional(),
    version_id: hexId.optional(),
    version_tag: z.string().min(1).max(64).optional(),
    agent_variables: agentVariablesSchema.optional(),
    agent_id: NO_AGENT_ID,
  },
  { error: 'The body must be a JSON object.' },
);
export type RerunBodyParsed = z.infer<typeof rerunBodySchema>;

export const followupBodySchema = z.object(
  { context: jsonObject.optional(), agent_id: NO_AGENT_ID },
  { error: 'The body must be a JSON object.' },
);

export const channelSchema = z.enum(['whatsapp', 'sms']);

export const channelBodySchema = z.object(
  {
    user_id: userId,
    agent_display_name: z.string().min(1).max(80).optional(),
    phone_number: z
      .string({ error: 'Required, a string.' })
      .regex(E164_PATTERN, { error: 'Must be an E.164 phone number such as +4915112345678.' }),
    thread_id: hexId.optional(),
    agent_id: NO_AGENT_ID,
    template_id: removed('template_id no longer exists: the agent’s configured template is always used.'),
    content_variables: removed('content_variables no longer exists.'),
    user_ref_id: removed('user_ref_id was renamed to user_id.'),
  },
  { error: 'The body must be a JSON object.' },
);

export const tokenBodySchema = z.object(
  {
    publishable_key: z.string({ error: 'Required, a string.' }).min(1).max(200),
    /** The visitor the token acts for: threads it creates are that visitor's (docs/protocol.md "Visitors"). */
    user_id: userId.optional(),
  },
  { error: 'The body must be a JSON object.' },
);

/** Cards in scripted replies are taken as given: hostile-content tests send odd shapes (null, numbers). */
const looseCard = z.unknown();

const count = z.number().int().min(0);

/** Mirrors `FaultPlan`; strict so a misspelt knob fails the test that set it, not silently. */
/** `POST /__demo/keys/:key/clock`: how far to move the key's clock on. */
export const clockBodySchema = z.strictObject({ advanceMs: z.number().int().min(0).max(86_400_000) });

/** A key's own limits (limits.ts), within what one key may be given: at most a minted key's share of memory together. */
export const keyLimitsSchema = z.strictObject({
  threads: z.number().int().min(1).max(10_000).optional(),
  bytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(64 * 1024 * 1024)
    .optional(),
  perSecond: z.number().min(0.01).max(100_000).optional(),
  burst: z.number().int().min(1).max(1_000_000).optional(),
  runningTurns: z.number().int().min(1).max(1000).optional(),
  sessions: z.number().int().min(1).max(10_000).optional(),
});

export const faultPlanSchema = z.strictObject({
  tokenTtl: z.number().min(0).max(86_400).optional(),
  unauthorized: count.optional(),
  tokenExchangeFailures: count.optional(),
  fail: z
    .array(
      z.strictObject({
        status: z.number().int().min(400).max(599),
        code: z.string().optional(),
        times: count.optional(),
        path: z.string().optional(),
        retryAfter: z.number().min(0).optional(),
        rawBody: z.string().optional(),
      }),
    )
    .optional(),
  dropAfter: z.array(count).optional(),
  paceMs: z.number().min(0).max(10_000).optional(),
  chunkChars: z.number().int().min(1).optional(),
  stallAfter: count.optional(),
  malformedAfter: count.optional(),
  unknownFrameAfter: count.optional(),
  errorFrame: z
    .strictObject({
      after: count,
      status: z.number().int().optional(),
      statusField: z.enum(['status', 'status_code', 'code']).optional(),
      message: z.string().optional(),
      times: count.optional(),
    })
    .optional(),
  replies: z
    .array(
      z.strictObject({
        text: z.string(),
        repeat: z.number().int().min(1).max(100_000).optional(),
        cards: z.array(looseCard).optional(),
        suggestions: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  welcome: z.string().optional(),
  suggestions: z.array(z.string()).optional(),
  omitDone: z.boolean().optional(),
  keepOpen: z.boolean().optional(),
  holdStream: z.boolean().optional(),
  keepaliveMs: z.number().int().min(10).optional(),
  thinkMs: z.number().int().min(0).max(120_000).optional(),
  intakeDelayMs: z.number().int().min(0).max(60_000).optional(),
  threadFrameDelayMs: z.number().int().min(0).max(60_000).optional(),
  streamWithoutCors: z.boolean().optional(),
  rawTurns: z.array(z.array(z.string())).optional(),
  transcriptAt: z.enum(['end', 'start']).optional(),
  unresumable: z.boolean().optional(),
  deafSession: z.boolean().optional(),
  rawTranscript: z.unknown().optional(),
  limits: keyLimitsSchema.optional(),
});
