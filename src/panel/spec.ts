import { nothing } from 'lit-html';
import type { Chunk } from '../lazy.js';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';
import { warnOnce } from '../warn.js';
import type { PanelContext } from './context.js';
import type { Feature, FeatureModule } from './feature.js';

/** A moment the panel fetches features ahead at: a thread loading (beside its transcript), a turn starting. */
export type Moment = 'transcript' | 'turn';

/**
 * Where a feature renders in the panel. Within a place, features render in the registry's
 * order (src/panel/features.ts). Each returns `nothing` (or, for `editor`, null) where it
 * shows nothing.
 */
export interface Places<U> {
  /** The header, after the heading. */
  title?(use: U): unknown;
  /** The header's buttons, before the history, new-conversation and close buttons. */
  headerButtons?(use: U): unknown;
  /** Between the header and the messages. */
  aboveLog?(use: U): unknown;
  /** Over the messages (the history list). */
  overLog?(use: U): unknown;
  /** A reply's cards. */
  cards?(use: U, m: ChatMessage): unknown;
  /** The row of controls under a reply (one part with the time stamp). */
  replyControls?(use: U, m: ChatMessage): unknown;
  /** The controls under a question. */
  questionControls?(use: U, m: ChatMessage): unknown;
  /** Under a reply's controls: what one of them opened. */
  belowControls?(use: U, m: ChatMessage): unknown;
  /** In place of a question being edited: null where none is. */
  editor?(use: U, m: ChatMessage): unknown;
  /** In the composer, before the text field. */
  composerStart?(use: U): unknown;
  /** In the composer, after the text field. */
  composerEnd?(use: U): unknown;
}
export type Place = keyof Places<unknown>;

/**
 * One feature as its folder declares it (its `feature.ts`) and the panel composes it
 * (docs/architecture.md "Where a change goes"): its chunk, what turns it on, when it is
 * needed, whether a render waits for it, how its control is made and where it renders.
 * `M`: its chunk's module; `C`: its control (made once the chunk is here and it is on);
 * `A`: what the panel's side of it keeps and does besides (`mount`).
 */
export interface FeatureSpec<M extends FeatureModule = FeatureModule, C = unknown, A extends object = Mount> {
  /** Its chunk: the folder's `index.ts`. */
  readonly load: Chunk<M>;
  /** The setting that turns it on, read as the panel renders (default: always on). Off, it is not fetched for itself and gets no control. */
  on?(ctx: PanelContext): boolean;
  /** Fetched as soon as it is on: `wait`, the render waits a little for it. */
  readonly whenOn?: 'fetch' | 'wait';
  /** Fetched ahead at these moments (while on). */
  readonly prefetch?: readonly Moment[];
  /** A message shown needs it: fetched then, and with `wait` the render that shows it waits a little. */
  needs?(m: ChatMessage): boolean;
  readonly wait?: boolean;
  /** Its failure is said where it would render, not by the panel's notice ("Part of the chat could not load"). */
  readonly saysFailure?: boolean;
  /** Said once in the console when its chunk cannot be fetched. */
  readonly failure?: string;
  /** Its control, once the chunk is here and it is on. */
  create(module: M, ctx: PanelContext): C;
  readonly places?: Places<FeatureUse<M, C, A>>;
  /** What the panel's side of it keeps (a checked setting, view state) and the calls the panel makes besides rendering: made once per widget. */
  mount?(use: FeatureUse<M, C>): A;
}

/** What a feature's panel side may keep and do; `willUpdate` runs before each render, after its control is made. */
export interface Mount {
  willUpdate?(changed: PropertyValues<ChatHost>): void;
}

/** What the panel calls on every feature alike, whatever its module and control. */
export interface Composed {
  prefetch(moment: Moment): void;
  fetchForShown(state: ConversationState): void;
  willUpdate(changed: PropertyValues<ChatHost>): void;
  render(place: Place, m?: ChatMessage): unknown;
}

/**
 * One widget's use of one feature (`FeatureSpec`): its chunk, its control and what its
 * `mount` keeps. The panel makes one per registry entry and calls the same few methods on
 * each: nothing in the panel names a feature that only renders.
 */
export class FeatureUse<M extends FeatureModule = FeatureModule, C = unknown, A extends object = Mount> implements Composed {
  readonly feature: Feature<M>;
  control: C | null = null;
  readonly api: A;
  /** Whether it was on at the last look: turning on is a reason to look at the messages again. */
  private __wasOn = false;

  constructor(
    readonly spec: FeatureSpec<M, C, A>,
    readonly ctx: PanelContext,
  ) {
    this.feature = ctx.feature(spec.load, spec.saysFailure);
    this.api = spec.mount?.(this as FeatureUse<M, C>) ?? ({} as A);
    // Set before the panel came: the first render waits for it too.
    this.__fetchIfOn();
  }

  get on(): boolean {
    return this.spec.on?.(this.ctx) ?? true;
  }

  get module(): M | null {
    return this.feature.module;
  }

  /** Fetched (or joined); `wait`: the next render waits a little for it. A failure is said once in the console if the spec says what. */
  want(wait = false): Promise<M | null> {
    const loading = this.feature.want(wait);
    const { failure } = this.spec;
    if (failure && !this.feature.module) void loading.then((module) => module || warnOnce(failure));
    return loading;
  }

  /** Its control, made now if the chunk is here (a call the panel makes before a render has). */
  make(): C | null {
    const module = this.feature.module;
    if (module && !this.control && this.on) this.control = this.spec.create(module, this.ctx);
    return this.control;
  }

  prefetch(moment: Moment): void {
    if (this.spec.prefetch?.includes(moment) && this.on) void this.want();
  }

  /** The conversation changed: a message it shows needs it (fetched; a render that shows it waits, if the spec says). */
  fetchForShown(state: ConversationState): void {
    const { needs } = this.spec;
    if (needs && !this.feature.module && this.on && state.messages.some(needs)) void this.want(this.spec.wait);
  }

  willUpdate(changed: PropertyValues<ChatHost>): void {
    const on = this.__fetchIfOn();
    if (on && !this.__wasOn) this.fetchForShown(this.ctx.chat.state);
    this.__wasOn = on;
    this.make();
    (this.api as Mount).willUpdate?.(changed);
  }

  render(place: Place, m?: ChatMessage): unknown {
    const draw = this.spec.places?.[place] as ((use: this, m?: ChatMessage) => unknown) | undefined;
    return draw ? draw(this, m) : nothing;
  }

  private __fetchIfOn(): boolean {
    const on = this.on;
    if (on && this.spec.whenOn && !this.feature.module) void this.want(this.spec.whenOn === 'wait');
    return on;
  }
}

/**
 * A feature's spec, its types checked where it is written: `defineFeature(load, create)`
 * with its chunk and how its control is made, then `.with({...})` the rest (in two steps so
 * that the chunk's module types the control, and both type what `mount` keeps).
 */
export const defineFeature = <M extends FeatureModule, C>(load: Chunk<M>, create: (module: M, ctx: PanelContext) => C) => ({
  with: <A extends object = Mount>(rest: Omit<FeatureSpec<M, C, A>, 'load' | 'create'>): FeatureSpec<M, C, A> => ({
    ...rest,
    load,
    create,
  }),
});

/** One widget's use of the feature `S` declares. */
export type UseOf<S> = S extends FeatureSpec<infer M, infer C, infer A> ? FeatureUse<M, C, A> : never;
/** One widget's uses of every feature of a registry, by the registry's names. */
export type Uses<R> = { [K in keyof R]: UseOf<R[K]> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds specs of every module and control type
export function useAll<R extends Record<string, FeatureSpec<any, any, any>>>(registry: R, ctx: PanelContext): Uses<R> {
  return Object.fromEntries(Object.entries(registry).map(([name, spec]) => [name, new FeatureUse(spec, ctx)])) as Uses<R>;
}

/**
 * What the features render in `place`, in the registry's order: `nothing` when none
 * renders anything there, the one result alone (no extra marker in the DOM), else a list.
 */
export function renderPlace(uses: readonly Composed[], place: Place, m?: ChatMessage): unknown {
  const shown: unknown[] = [];
  for (const use of uses) {
    const part = use.render(place, m);
    if (part !== nothing && part !== undefined && part !== null) shown.push(part);
  }
  return shown.length > 1 ? shown : shown.length ? shown[0] : place === 'editor' ? null : nothing;
}
