/**
 * TEMPORARY stand-in for psp-core's psp-server.ts / problems.ts types until wip/psp-core lands;
 * replaced by imports from there on merge.
 */
export interface PspRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  clientId: string;
}

export interface PspAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PspRouter {
  register(method: string, path: string, handler: (req: PspRequest) => Promise<PspAnswer>): void;
}

export function pspProblem(status: number, type: string, title: string, detail?: string, violacoes?: { razao: string; propriedade: string }[]): PspAnswer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: `https://pix.bcb.gov.br/api/v2/error/${type}`, title, status, ...(detail ? { detail } : {}), ...(violacoes ? { violacoes } : {}) },
  };
}
