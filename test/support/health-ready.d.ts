export interface WaitHealthReadyOptions {
  /** How long to keep asking, in ms (60 s by default). */
  timeoutMs?: number;
  /** The pause between two rounds, in ms (150 by default). */
  intervalMs?: number;
  /** True once the process behind the URLs has ended: the wait fails then, without waiting out `timeoutMs`. */
  exited?: () => boolean;
  /** The message of the error thrown when not ready (`exited`: whether the process had ended). */
  failure?: (exited: boolean) => string;
}

/** Until every one of `bases` answers GET /health/ready with 200 in the same round (see health-ready.js). */
export function waitHealthReady(bases: string | string[], options?: WaitHealthReadyOptions): Promise<void>;
