import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { AgentClient } from '../../src/client/index.js';
import { BASE_URL, createKey } from '../support/server.js';
import { agentTexts, mount, sendByUser, unmountAll, until } from '../support/element.js';

/**
 * Property (issue "No reply, card or setting may break the widget"): whatever a broken or
 * hostile service sends (arbitrary frames, message objects, card arrays and markdown,
 * nesting and quadratic families included), the widget afterwards still sends a message
 * and renders the next reply, and nothing is thrown at the page.
 */

const NEXT = 'And this is the next reply.';
const hex24 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });

/** The families that froze 0.1: nesting past marked's stack, and delimiter runs it lexes in quadratic time. */
const family = fc.oneof(
  fc
    .integer({ min: 50, max: 2500 })
    .chain((n) =>
      fc.constantFrom(
        '> '.repeat(n),
        '- '.repeat(n),
        '1. '.repeat(n),
        `${'**a '.repeat(n)}x${' a**'.repeat(n)}`,
        `${'*a '.repeat(n)}x${' a*'.repeat(n)}`,
        `${'[a '.repeat(n)}x${'](u)'.repeat(n)}`,
      ),
    ),
  fc
    .integer({ min: 500, max: 20_000 })
    .chain((n) =>
      fc.constantFrom(
        'a_b_'.repeat(n / 4),
        `</${'<!--'.repeat(n / 4)}`,
        '*a'.repeat(n / 2),
        '~a'.repeat(n / 2),
        '[a]('.repeat(n / 4),
        '`a'.repeat(n / 2),
      ),
    ),
);

const markdownText = fc.oneof(
  family,
  fc.string({ maxLength: 200 }),
  fc
    .array(
      fc.constantFrom(
        '# h',
        '**b**',
        '_e_',
        '`c`',
        '```\ncode\n```',
        '| a |\n|---|\n| 1 |',
        '- item',
        '> q',
        '[l](https://x.example)',
        '<b>x</b>',
        '\n\n',
        '&amp;',
        '\u202e',
      ),
      {
        maxLength: 20,
      },
    )
    .map((parts) => parts.join(' ')),
);

const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));

const cardLike = fc.record(
  {
    json_data: fc.oneof(
      fc.record(
        {
          entity: fc.oneof(fc.dictionary(fc.string({ maxLength: 12 }), scalar, { maxKeys: 8 }), fc.anything({ maxDepth: 2 })),
          sub_entities: fc.anything({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      ),
      fc.anything({ maxDepth: 2 }),
    ),
    is_recommended: fc.anything({ maxDepth: 1 }),
    index: fc.oneof(fc.integer(), fc.double(), fc.anything({ maxDepth: 1 })),
  },
  { requiredKeys: [] },
);

const cards = fc.oneof(
  fc.array(fc.oneof({ weight: 3, arbitrary: cardLike }, { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) }), { maxLength: 30 }),
  fc.anything({ maxDepth: 2 }),
);

const message = fc.oneof(
  fc.record(
    {
      id: fc.oneof(hex24, fc.anything({ maxDepth: 1 })),
      text: fc.oneof({ weight: 4, arbitrary: markdownText }, { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) }),
      sender: fc.oneof(fc.constant({ type: 'agent' }), fc.anything({ maxDepth: 2 })),
      cards,
      followup_suggestions: fc.oneof(
        fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.anything({ maxDepth: 1 })), { maxLength: 12 }),
        fc.anything({ maxDepth: 1 }),
      ),
      created_at: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.anything({ maxDepth: 1 }),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 2 }),
);

const seq = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.anything({ maxDepth: 0 }));
const threadId = fc.oneof(fc.constant('a1b2c3d4e5f6a1b2c3d4e5f6'), fc.string({ maxLength: 30 }), hex24);

const frame = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('event'),
      seq,
      data: fc.oneof(fc.record({ text: markdownText }), fc.anything({ maxDepth: 1 })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('message'), seq, data: message }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('error'), data: fc.anything({ maxDepth: 2 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('thread'), data: fc.oneof(fc.record({ thread_id: threadId }), fc.anything({ maxDepth: 1 })) }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.string({ maxLength: 10 }), seq, data: fc.anything({ maxDepth: 2 }) }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** A turn's frames as `data:` payloads: mostly JSON, now and then not. */
const turn = fc.array(
  fc.oneof({ weight: 6, arbitrary: frame.map((f) => JSON.stringify(f) ?? 'null') }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }),
  {
    maxLength: 12,
  },
);

/** Errors thrown at the page while `run` runs. */
async function uncaughtDuring(run: () => Promise<void>): Promise<unknown[]> {
  const uncaught: unknown[] = [];
  const onError = (e: ErrorEvent) => uncaught.push(e.error ?? e.message);
  const onRejection = (e: PromiseRejectionEvent) => uncaught.push(e.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  const warn = console.warn;
  console.warn = () => {}; // the widget reports what it degrades; hundreds of lines here
  try {
    await run();
  } finally {
    console.warn = warn;
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  }
  return uncaught;
}

describe('hostile service (property)', function () {
  this.timeout(240_000);
  afterEach(unmountAll);

  it('arbitrary frames, messages, cards and markdown: the widget then sends and shows the next reply', async () => {
    await fc.assert(
      fc.asyncProperty(turn, fc.boolean(), async (frames, omitDone) => {
        const key = await createKey({ paceMs: 0, omitDone, rawTurns: [frames], replies: [{ text: 'The first reply.' }, { text: NEXT }] });
        const uncaught = await uncaughtDuring(async () => {
          const el = await mount({ 'publishable-key': key });
          await sendByUser(el, 'Hostile turn');
          await sendByUser(el, 'Next turn');
          await until(() => agentTexts(el).at(-1) === NEXT, `the next reply did not show after ${JSON.stringify(frames).slice(0, 300)}`);
          unmountAll();
        });
        expect(uncaught, JSON.stringify(frames).slice(0, 300)).to.deep.equal([]);
      }),
      { numRuns: 30 },
    );
  });

  it('arbitrary transcripts: the widget loads them (or says it could not) and still works', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(message, { maxLength: 8 }), fc.anything({ maxDepth: 2 })), async (transcript) => {
        const key = await createKey({ paceMs: 0, rawTranscript: transcript, replies: [{ text: 'Made the thread.' }, { text: NEXT }] });
        const made = await new AgentClient({ baseUrl: BASE_URL, publishableKey: key }).send({ text: 'Start', user_id: 'property-user' });
        const uncaught = await uncaughtDuring(async () => {
          const el = await mount({ 'publishable-key': key, 'thread-id': made.thread_id }, {}, { ready: false });
          await until(() => el.status === 'idle' || el.status === 'error', 'the transcript did not settle');
          await sendByUser(el, 'Next turn');
          await until(
            () => agentTexts(el).at(-1) === NEXT,
            `the next reply did not show after ${JSON.stringify(transcript)?.slice(0, 300)}`,
          );
          unmountAll();
        });
        expect(uncaught).to.deep.equal([]);
      }),
      { numRuns: 15 },
    );
  });
});
