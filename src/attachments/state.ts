import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { safeImageUrl } from '../security/url.js';

/**
 * The composer's image attachment: which files are accepted, the upload through the host's
 * `uploadImage` function, and the lifetime of the preview's object URL. No DOM beyond
 * `URL.createObjectURL`, which tests may replace through `ObjectUrls`.
 */

/** The formats vision models take; others (HEIC, SVG, TIFF…) are refused before any upload. */
export const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Why an attachment cannot be sent; the element turns each into a localized message. */
export type AttachmentError =
  | { kind: 'type'; name: string }
  | { kind: 'size'; name: string; maxBytes: number }
  /** The host's `uploadImage` threw or rejected; `message` is its own explanation. */
  | { kind: 'upload'; message: string }
  /** `uploadImage` resolved to something that is not an http(s) URL. */
  | { kind: 'url' };

/**
 * `empty`: nothing attached; `ready`: attached, not uploaded; `uploading`: the host's function
 * is running (sending is disabled); `failed`: the upload failed, the file is kept for a retry.
 */
export type AttachmentStatus = 'empty' | 'ready' | 'uploading' | 'failed';

export interface ImageLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/** `null` when `file` may be attached, otherwise the reason it may not. */
export function checkImage(file: ImageLike, maxBytes = MAX_IMAGE_BYTES): AttachmentError | null {
  if (!IMAGE_TYPES.includes(file.type.toLowerCase())) return { kind: 'type', name: file.name };
  if (file.size > maxBytes) return { kind: 'size', name: file.name, maxBytes };
  return null;
}

/**
 * The URL an upload returned, if it can go out as `image_url`: it passes the widget's one
 * URL allow-list and is http(s) (`mailto:`/`tel:` pass `safeUrl` but are no images; `blob:`
 * and `data:` never reach the service).
 */
export const uploadedImageUrl = safeImageUrl;

/** The first image among pasted or dropped files; `null` when there is no file at all. */
export function firstFile(files: ArrayLike<File> | null | undefined): File | null {
  if (!files?.length) return null;
  const list = Array.from(files);
  return list.find((f) => f.type.startsWith('image/')) ?? list[0] ?? null;
}

export interface ObjectUrls {
  create(file: Blob): string;
  revoke(url: string): void;
}

const browserUrls: ObjectUrls = {
  create: (file) => URL.createObjectURL(file),
  revoke: (url) => URL.revokeObjectURL(url),
};

/**
 * Holds at most one attachment. As a ReactiveController it revokes the preview URL when the
 * element leaves the page (and makes a fresh one if it comes back), so a preview never keeps
 * a file alive in memory after the widget is gone.
 */
export class Attachments implements ReactiveController {
  file: File | null = null;
  previewUrl = '';
  status: AttachmentStatus = 'empty';
  error: AttachmentError | null = null;
  /** Bumped on every change of file, so a late upload result for a removed file is dropped. */
  private __generation = 0;

  constructor(
    private readonly __host?: ReactiveControllerHost,
    private readonly __urls: ObjectUrls = browserUrls,
    readonly maxBytes = MAX_IMAGE_BYTES,
  ) {
    __host?.addController(this);
  }

  hostConnected(): void {
    if (this.file && !this.previewUrl) this.previewUrl = this.__urls.create(this.file);
  }

  hostDisconnected(): void {
    this.__revoke();
  }

  get uploading(): boolean {
    return this.status === 'uploading';
  }

  /** Attaches `file` if it is an accepted image; otherwise keeps what was there and sets `error`. */
  attach(file: File): boolean {
    const problem = checkImage(file, this.maxBytes);
    if (problem) {
      this.error = problem;
      this.__changed();
      return false;
    }
    this.__revoke();
    this.__generation++;
    this.file = file;
    this.previewUrl = this.__urls.create(file);
    this.status = 'ready';
    this.error = null;
    this.__changed();
    return true;
  }

  /** Removes the attachment (also after a successful send) and any error. */
  clear(): void {
    this.__revoke();
    this.__generation++;
    this.file = null;
    this.status = 'empty';
    this.error = null;
    this.__changed();
  }

  dismissError(): void {
    if (!this.error) return;
    this.error = null;
    if (this.status === 'failed') this.status = 'ready';
    this.__changed();
  }

  /**
   * Runs the host's upload. Resolves to the URL to send as `image_url`, or `null` when it
   * failed (then `error` says why and the file stays attached) or the file was removed
   * meanwhile. Never rejects.
   */
  async upload(uploadImage: (file: File) => Promise<string>): Promise<string | null> {
    const file = this.file;
    if (!file || this.status === 'uploading') return null;
    const generation = this.__generation;
    this.status = 'uploading';
    this.error = null;
    this.__changed();
    let result: unknown;
    let error: AttachmentError | null = null;
    try {
      result = await uploadImage(file);
    } catch (e) {
      error = { kind: 'upload', message: e instanceof Error ? e.message : typeof e === 'string' ? e : '' };
    }
    if (generation !== this.__generation) return null;
    const url = error ? null : uploadedImageUrl(result);
    if (!url) {
      this.status = 'failed';
      this.error = error ?? { kind: 'url' };
      this.__changed();
      return null;
    }
    this.status = 'ready';
    this.__changed();
    return url;
  }

  private __revoke(): void {
    if (this.previewUrl) this.__urls.revoke(this.previewUrl);
    this.previewUrl = '';
  }

  private __changed(): void {
    this.__host?.requestUpdate();
  }
}
