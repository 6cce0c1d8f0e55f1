// Types of test/browser/harness.mjs.
export const ROOT: string;
export const CHROMIUM: string;
export const BUNDLE_FILES: string[];
export const CHROMIUM_FLAGS: string[];
export function hasChromium(): boolean;

export interface PageOptions {
  /** Repository-relative files served at `/<path>`. */
  files?: string[];
  /** Bodies built in memory, by URL path. */
  bodies?: Record<string, string>;
  /** How long one `call` may take, ms. */
  callMs?: number;
}

export interface OpenPage {
  /** The playwright-core Page. */
  page: { title(): Promise<string> };
  origin: string;
  /** Uncaught page errors and crashes, as they happen. */
  errors: string[];
  call<T = unknown>(url: string, name: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export function openPage(options?: PageOptions): Promise<OpenPage>;
export function withPage<T>(options: PageOptions, body: (opened: OpenPage) => Promise<T>): Promise<T>;
