/**
 * How every layer logs, and what a log line or a problem says of an error. A pure type and one
 * function: the engine, the service, both shells and the dashboard import it alike.
 */

export type LogLevel = 'info' | 'warn' | 'error';

/** A line for the operator's log (the console, the desktop's log file). Never given a credential. */
export type Log = (level: LogLevel, message: string) => void;

/**
 * An error in words: its message (its stack with `stack: true`, for the log of a fault nobody
 * expected), or the thrown value itself when it is not an Error.
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): string {
  if (!(error instanceof Error)) return String(error);
  return options.stack ? (error.stack ?? error.message) : error.message;
}
