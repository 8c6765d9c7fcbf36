/**
 * RFC 7807 problems as API Pix writes them (`type` under https://pix.bcb.gov.br/api/v2/error/,
 * `title`, `status`, `detail`, and `violacoes` naming each refused property).
 */
export interface PspViolation {
  razao: string;
  propriedade: string;
  valor?: string;
}

export interface PspAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function pspProblem(status: number, type: string, title: string, detail?: string, violacoes?: PspViolation[]): PspAnswer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: {
      type: `https://pix.bcb.gov.br/api/v2/error/${type}`,
      title,
      status,
      ...(detail ? { detail } : {}),
      ...(violacoes?.length ? { violacoes } : {}),
    },
  };
}

/** The answers every route shares. */
export const PspProblems = {
  invalidRequest: (detail: string, violacoes?: PspViolation[]) =>
    pspProblem(400, 'RequisicaoInvalida', 'Requisição inválida.', detail, violacoes),
  unauthorized: () => pspProblem(401, 'NaoAutorizado', 'Não autorizado.', 'O token de acesso está ausente, é inválido ou expirou.'),
  forbidden: () =>
    pspProblem(403, 'AcessoNegado', 'Acesso negado.', 'Requisição de participante autenticado que viola alguma regra de autorização.'),
  notFound: () => pspProblem(404, 'NaoEncontrado', 'Não encontrado.', 'Entidade não encontrada.'),
  methodNotAllowed: () => pspProblem(405, 'MetodoNaoPermitido', 'Método não permitido.'),
  tooLarge: () => pspProblem(413, 'RequisicaoInvalida', 'Requisição inválida.', 'O corpo da requisição excede o limite.'),
  internal: () => pspProblem(500, 'ErroInternoDoServidor', 'Erro interno do servidor.'),
};
