/** What an end-to-end test gets: a running reaper (headless server or desktop app) and its options. */
export interface Reaper {
  url: string;
  /** The dashboard with the admin token in the fragment, as the server prints it. */
  dashboardUrl: string;
  token: string;
  /** Call the admin API; the body is parsed JSON. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The id of an app of the scenario, by name. */
  appId(name: string): Promise<string>;
  /** The engine's clock (it runs `timeScale` times faster than real time). */
  now(): Promise<number>;
}

export interface ReaperOptions {
  /** The demo scenario, or null for a server with no account (the first-run screen). */
  scenario: string | null;
  timeScale: number;
}
