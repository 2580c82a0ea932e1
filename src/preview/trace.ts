/**
 * A reply's trace as readable steps, in a modal dialog: focus moves in (to its close
 * button) and, when it closes (Escape, the button), back to the reply's Trace button. Each
 * step says what it was (`param`, `intent`, `tool`, `rule`, `model`, `reply`…), its name and
 * time, the facts worth a glance (a rule's outcome, a model's finish reason and tokens, a
 * parameter's value), and its input and output as pretty-printed JSON: text, never markup,
 * and bounded where it entered (src/client/management-guards.ts `boundedJson`).
 */
import { html, nothing } from 'lit-html';
import type { Trace, TraceStep } from '../client/management.js';
import { cutText } from '../client/guards.js';
import { isObject } from '../client/types.js';
import type { Strings } from '../i18n/strings.js';

/** Keys of a step's input or output shown as facts beside its name, when they hold a plain value. */
const FACTS = ['value', 'text', 'finish_reason', 'input_tokens', 'output_tokens', 'first_token_ms', 'chars', 'frames', 'cards'];
/** Characters of one fact (a model's reply is in its output, whole). */
const FACT_CHARS = 160;
/** JSON this short shows open; longer JSON is a disclosure. */
const OPEN_CHARS = 240;

const ms = (value: number | null) => (value === null ? '' : `${value} ms`);

/** A step's facts: its outcome, and the plain values of its input and output under `FACTS`. */
export function factsOf(step: TraceStep): Array<[string, string]> {
  const facts: Array<[string, string]> = step.outcome ? [['outcome', step.outcome]] : [];
  for (const side of [step.input, step.output]) {
    if (!isObject(side)) continue;
    for (const key of FACTS) {
      const value = side[key];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        facts.push([key, cutText(String(value), FACT_CHARS)]);
    }
  }
  return facts;
}

function renderJson(label: string, value: unknown) {
  if (value === undefined) return nothing;
  const text = JSON.stringify(value, null, 2);
  return html`<details class="trace-json" ?open=${text.length <= OPEN_CHARS}><summary>${label}</summary><pre>${text}</pre></details>`;
}

function renderStep(step: TraceStep) {
  const facts = factsOf(step);
  return html`<li class="trace-step">
    <p class="trace-step-head">
      <span class="trace-step-type">${step.type}</span> <span class="trace-step-name">${step.name}</span>
      <span class="trace-step-time">${ms(step.duration_ms)}</span>
    </p>
    ${
      facts.length
        ? html`<dl class="trace-facts">
            ${facts.map(([key, value]) => html`<div><dt>${key}</dt><dd>${value}</dd></div>`)}
          </dl>`
        : nothing
    }
    ${step.error ? html`<p class="trace-error">${step.error.code}: ${step.error.message}</p>` : nothing}
    ${renderJson('input', step.input)}${renderJson('output', step.output)}
  </li>`;
}

function renderTrace(t: Strings, trace: Trace) {
  const summary = [trace.status, trace.version_tag, ms(trace.duration_ms), trace.started_at].filter(Boolean).join(' · ');
  return html`<p class="trace-summary">${summary}</p>
    ${trace.error ? html`<p class="trace-error">${trace.error.code}: ${trace.error.message}</p>` : nothing}
    <ol class="trace-steps">
      ${trace.steps.map(renderStep)}
    </ol>
    ${trace.truncated ? html`<p class="trace-summary">${t.traceTruncated}</p>` : nothing}`;
}

export interface TraceDialogView {
  /** Null while it loads. */
  trace: Trace | null;
  /** Why it could not be loaded. */
  error: string | null;
}

/** The dialog; the preview opens it modal (`showModal()`) once it is rendered. */
export function renderTraceDialog(t: Strings, view: TraceDialogView, on: { onClose(): void }) {
  const body = view.trace
    ? renderTrace(t, view.trace)
    : view.error
      ? html`<p class="trace-error" role="alert">${view.error}</p>`
      : html`<p class="trace-summary" role="status">${t.traceLoading}</p>`;
  return html`<dialog
    part="trace"
    class="trace"
    aria-labelledby="trace-heading"
    @close=${on.onClose}
    @keydown=${(event: KeyboardEvent) => {
      // Keys inside the dialog are its own: the panel's (Escape closes a launcher, arrow keys
      // move between messages) and a full-screen panel's focus trap must not act on them.
      // Escape still closes the dialog: the browser's cancel does not depend on propagation.
      event.stopPropagation();
    }}
  >
    <div class="trace-head">
      <h3 id="trace-heading">${t.trace}</h3>
      <button class="icon-button" type="button" aria-label=${t.closeTrace} title=${t.closeTrace} @click=${closeDialog}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" /></svg>
      </button>
    </div>
    ${body}
  </dialog>`;
}

const closeDialog = (event: Event) => (event.currentTarget as HTMLElement).closest('dialog')?.close();
