// Types of server-bundle.mjs (plain JavaScript: it runs before anything is compiled).
export const bundleDir: string;
export const bundleEntry: string;
/** The V8 flags the server runs with (decision 053). */
export const SERVER_NODE_FLAGS: readonly string[];
export function isServerBundleStale(): boolean;
export function buildServerBundle(): Promise<void>;
export function ensureServerBundle(): Promise<void>;
