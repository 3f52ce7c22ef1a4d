/**
 * The page's own marks of its first screen (performance.mark), read by bench/dashboard.ts: where the
 * time between the navigation and the rows goes, without a trace. Plain names (no DOM types: the
 * benchmark, in Node.js, imports them).
 */
/** The snapshot the first script asked for, read and decoded (renderer/api/early.ts). */
export const MARK_SNAPSHOT_DECODED = 'reaper:snapshot-decoded';
/** The bundle (renderer/boot.tsx) fetched, compiled and run, the catalogue in (renderer/main.tsx). */
export const MARK_BUNDLE_RAN = 'reaper:bundle-ran';
/** The server-rendered first screen hydrated: its controls answer from now on (renderer/boot.tsx). */
export const MARK_HYDRATED = 'reaper:hydrated';
