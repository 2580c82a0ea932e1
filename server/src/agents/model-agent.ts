import OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentVariables } from '@agent-chat/wire';
import { AgentFailure, type Agent, type AgentAnswer, type AgentInput } from './demo-agent.js';

/**
 * A real model behind the reference server: any OpenAI-compatible chat-completions endpoint
 * (OpenAI, Ollama, llama.cpp's server, vLLM…) answers instead of the scripted demo agent,
 * through the official `openai` client. Everything else (tokens, threads, resume, reruns,
 * the WebSocket session) stays the reference server's: a turn still runs on its own and its
 * frames are buffered, so a resumed stream replays and never asks the model twice.
 */

/** Where the model is, from `OPENAI_BASE_URL`, `OPENAI_API_KEY` and `AGENT_MODEL`. */
export interface ModelSettings {
  baseURL: string;
  apiKey: string;
  model: string;
  /**
   * How long the model may say nothing (no answer, no delta) before the turn fails, in ms:
   * the service's own silence bound (docs/protocol.md "Stream resume"), default 60000.
   */
  silenceMs?: number;
  /** The HTTP client the `openai` client uses (default: the global fetch); a test hands it a scripted model. */
  fetch?: typeof fetch;
}

/** The widget gives up on a silent turn after 60 s: the model is given no longer. */
const SILENCE_MS = 60_000;

/** Earlier messages sent along as context; older ones are left out. */
const HISTORY_LIMIT = 40;

/**
 * The settings when `OPENAI_BASE_URL` is set, else null (the demo agent answers). A base URL
 * without a model is a mistake worth stopping for: nothing could answer.
 */
export function modelSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ModelSettings | null {
  const baseURL = env['OPENAI_BASE_URL']?.trim();
  if (!baseURL) return null;
  const model = env['AGENT_MODEL']?.trim();
  if (!model)
    throw new Error('OPENAI_BASE_URL is set but AGENT_MODEL is not: name the model that should answer (e.g. AGENT_MODEL=gpt-4o-mini).');
  // Local servers (Ollama, llama.cpp) take any key; the client insists on one.
  return { baseURL, apiKey: env['OPENAI_API_KEY']?.trim() || 'unused', model };
}

export class ModelAgent implements Agent {
  readonly description: string;
  private readonly client: OpenAI;

  /** `fallback` keeps what a model does not do here: the welcome and the suggestions outside a turn. */
  constructor(
    private readonly settings: ModelSettings,
    private readonly fallback: Pick<Agent, 'welcomeTemplate' | 'suggestionsFor'>,
  ) {
    this.description = `the model "${settings.model}" at ${settings.baseURL}`;
    // No retries of its own: a failure becomes an error frame at once and the widget offers Retry.
    // Its timeout is the silence bound's to enforce (answer()): a long reply that keeps coming is not cut.
    this.client = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey,
      maxRetries: 0,
      timeout: 24 * 3600_000,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }

  welcomeTemplate(): string {
    return this.fallback.welcomeTemplate();
  }

  suggestionsFor(context: Record<string, unknown> | undefined): string[] {
    return this.fallback.suggestionsFor(context);
  }

  /**
   * The model's deltas as they come. A model that says nothing for `silenceMs` (before it
   * answers or mid-reply) fails the turn with `agents.model_timeout`; an answer that is not
   * an event stream (a proxy's HTML page) or a stream that ends without a finish reason on
   * its last choice (a cut connection closed cleanly) fails it as a model error, after the
   * text it gave: a cut-off reply is never recorded as complete.
   */
  answer(input: AgentInput, signal: AbortSignal): AgentAnswer {
    let usage: { input: number; output: number } | undefined;
    const { client, settings } = this;
    const messages = this.messagesFor(input);
    // The version's own model, else the server's (AGENT_MODEL).
    const model = input.version.settings.model ?? settings.model;
    const silenceMs = settings.silenceMs ?? SILENCE_MS;
    // The trace's model step: the prompt as sent (the system prompt and the latest messages;
    // the key stays out), then what came back and when.
    const asked = input.trace?.begin('model', model, {
      base_url: new URL(settings.baseURL).origin,
      message_count: messages.length,
      messages: messages.length > 20 ? [messages[0], ...messages.slice(-19)] : messages,
    });
    return {
      chunks: (async function* () {
        const silent = new AbortController();
        let timer = setTimeout(() => silent.abort(), silenceMs);
        const started = performance.now();
        let firstTokenMs: number | null = null;
        let finishReason: string | null = null;
        let text = '';
        const heard = () => {
          clearTimeout(timer);
          timer = setTimeout(() => silent.abort(), silenceMs);
        };
        const output = () => ({
          text,
          finish_reason: finishReason,
          first_token_ms: firstTokenMs,
          input_tokens: usage?.input ?? null,
          output_tokens: usage?.output ?? null,
        });
        const stopped = AbortSignal.any([signal, silent.signal]);
        let finished = false;
        try {
          const { data: stream, response } = await client.chat.completions
            .create({ model, messages, stream: true, stream_options: { include_usage: true } }, { signal: stopped })
            .withResponse();
          if (!/^text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
            throw new AgentFailure('The model did not answer with a stream.', 502, 'agents.model_error');
          }
          for await (const chunk of stream) {
            heard();
            if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
            const choice = chunk.choices[0];
            if (choice?.finish_reason) {
              finished = true;
              finishReason = choice.finish_reason;
            }
            if (choice?.delta?.content) {
              firstTokenMs ??= Math.round(performance.now() - started);
              text += choice.delta.content;
              yield choice.delta.content;
            }
          }
          // The client ends its iteration quietly when its request is aborted: the silence is told here.
          if (silent.signal.aborted && !signal.aborted) throw silence();
          if (!finished && !signal.aborted) throw new AgentFailure('The model’s reply was cut off.', 502, 'agents.model_interrupted');
          asked?.({ output: output() });
        } catch (error) {
          // Superseded by a newer turn: the turn reports that itself, nothing failed.
          if (signal.aborted) return;
          // Once the model has answered, a failure cut its reply: the turn can be asked again at
          // once, which "unavailable, try again later" beside a working Retry did not say.
          const failed = silent.signal.aborted
            ? silence()
            : text && !(error instanceof AgentFailure)
              ? cutOff(error, settings)
              : failure(error, settings);
          asked?.({ output: output(), error: { code: failed.code ?? String(failed.status), message: failed.message } });
          throw failed;
        } finally {
          clearTimeout(timer);
          // The turn stopped reading (superseded, or the reply grew too long): said once, if nothing else was.
          asked?.({ output: output(), error: { code: 'cancelled', message: 'The turn stopped reading the model.' } });
        }
      })(),
      rest: () => ({ cards: [], suggestions: [], usage }),
    };
  }

  /** The system prompt, the thread so far and the question, as chat messages. */
  private messagesFor(input: AgentInput): ChatCompletionMessageParam[] {
    const earlier: ChatCompletionMessageParam[] = input.history
      .filter((m) => m.text.trim())
      .slice(-HISTORY_LIMIT)
      .map((m) => (m.sender.type === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text }));
    const question: ChatCompletionContentPart[] = [{ type: 'text', text: input.text }];
    if (input.imageUrl) question.push({ type: 'image_url', image_url: { url: input.imageUrl } });
    const { welcome, instructions } = input.version.settings;
    return [
      { role: 'system', content: systemPrompt(welcome ?? this.fallback.welcomeTemplate(), input.variables, instructions) },
      ...earlier,
      { role: 'user', content: input.imageUrl ? question : input.text },
    ];
  }
}

/**
 * The version's instructions (its operator's) first; the welcome message (its
 * `{{placeholders}}` filled) says who the assistant is; the host's static variables say what
 * it knows about the visitor and the page. Dynamic variables change per message and are not
 * the agent's standing instructions.
 */
export function systemPrompt(welcome: string, variables: AgentVariables | undefined, instructions?: string): string {
  const known = Object.entries(variables?.static ?? {}).filter(([, value]) => value != null && typeof value !== 'object');
  const filled = welcome.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    const value = known.find(([key]) => key === name)?.[1];
    return value == null ? 'there' : String(value);
  });
  const lines = [
    'You are the assistant in a chat widget on a website. Answer in concise Markdown.',
    ...(instructions ? [instructions] : []),
    `You greeted the visitor with: "${filled}"`,
  ];
  if (known.length)
    lines.push('What the website tells you about this visitor and page:', ...known.map(([key, value]) => `- ${key}: ${String(value)}`));
  return lines.join('\n');
}

/** The model said nothing for the silence bound: a timeout the widget can retry. */
const silence = () => new AgentFailure('The model did not answer in time.', 504, 'agents.model_timeout');

/** The model's reply stopped part way (its connection dropped): a cut reply, not an unreachable model. */
function cutOff(error: unknown, settings: ModelSettings): AgentFailure {
  console.warn(
    `[reference server] the model "${settings.model}" stopped mid-reply: ${error instanceof Error ? error.message : String(error)}`,
  );
  return new AgentFailure('The model’s reply was cut off.', 502, 'agents.model_interrupted');
}

/** The longest wait a model's `Retry-After` is passed on with, in seconds: past it, "a moment" says as much. */
const MAX_RETRY_AFTER_S = 3600;

/** A model's `Retry-After` (seconds or an HTTP date), in whole seconds from now, or null. */
export function retryAfterOf(value: string | null | undefined, now = Date.now()): number | null {
  const v = value?.trim() ?? '';
  const seconds = /^\d+$/.test(v) ? Number(v) : /[a-z]/i.test(v) ? Math.ceil((Date.parse(v) - now) / 1000) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, MAX_RETRY_AFTER_S) : null;
}

/** The model's failure as the service reports a failed turn. */
function failure(error: unknown, settings: ModelSettings): AgentFailure {
  if (error instanceof AgentFailure) return error;
  const status = error instanceof OpenAI.APIError ? error.status : undefined;
  console.warn(`[reference server] the model "${settings.model}" failed: ${error instanceof Error ? error.message : String(error)}`);
  // What the model's API said to wait, passed on to the visitor's notice (the frame's `retry_after`).
  const wait = error instanceof OpenAI.APIError ? retryAfterOf(error.headers?.get('retry-after')) : null;
  if (status === 429)
    return new AgentFailure('The model is busy. Try again in a moment.', 429, 'agents.model_rate_limited', 'status', wait);
  if (error instanceof OpenAI.APIConnectionError || status === undefined || status >= 500) {
    return new AgentFailure('The model could not be reached. Try again in a moment.', 503, 'agents.model_unavailable', 'status', wait);
  }
  // 4xx other than 429: the server's configuration (key, model name, a feature the model lacks).
  return new AgentFailure(`The model refused the request (HTTP ${status}).`, 502, 'agents.model_error');
}
