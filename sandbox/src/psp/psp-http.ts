/** The sandbox PSP server's request/answer types and problems (psp-core's), as the cobr handlers use them. */
export type { PspRequest } from './psp-server';
export type { PspAnswer } from './problems';
export { pspProblem } from './problems';
import type { PspHandler } from './psp-server';

/** Where handlers register their routes (SandboxPspServer). */
export interface PspRouter {
  register(method: string, pattern: string, handler: PspHandler): void;
}
