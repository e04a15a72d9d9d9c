// Refusals as the BCB API answers them (RFC 7807 Problema, application/problem+json), by the error names of
// the spec's "Tratamento de erros" section: https://pix.bcb.gov.br/api/v2/error/<TipoErro>.
import { PROBLEM_TYPE_PREFIX, Problema, Violacao } from '@pixauto/bank';

export type Result<T> = { ok: true; value: T } | { ok: false; problem: Problema };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const refused = <T>(problem: Problema): Result<T> => ({ ok: false, problem });

/** Thrown at the HTTP edge to answer with a Problema. */
export class ProblemException extends Error {
  constructor(readonly problem: Problema) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemException';
  }
}

export const orRefuse = <T>(result: Result<T>): T => {
  if (!result.ok) throw new ProblemException(result.problem);
  return result.value;
};

function problem(name: string, title: string, status: number, detail: string, violacoes?: Violacao[]): Problema {
  return { type: PROBLEM_TYPE_PREFIX + name, title, status, detail, ...(violacoes !== undefined && violacoes.length > 0 && { violacoes }) };
}

/** One violation is the whole story: its reason becomes the detail. Several keep the generic detail. */
const detailOf = (generic: string, violacoes: Violacao[]): string => (violacoes.length === 1 && violacoes[0].razao ? violacoes[0].razao : generic);

export const Problems = {
  accessDenied: () =>
    problem(
      'AcessoNegado',
      'Acesso Negado',
      403,
      'Requisição de participante autenticado que viola alguma regra de autorização: envie Authorization: Bearer <token>.',
    ),
  notFound: () => problem('NaoEncontrado', 'Não Encontrado', 404, 'Entidade não encontrada.'),
  invalidRequest: (detail: string) => problem('RequisicaoInvalida', 'Requisição inválida.', 400, detail),
  internal: () => problem('ErroInternoDoServidor', 'Erro Interno do Servidor', 500, 'Condição inesperada ao processar requisição.'),
  unavailable: () => problem('ServicoIndisponivel', 'Serviço Indisponível', 503, 'Serviço não está disponível no momento.'),

  recNotFound: () => problem('RecNaoEncontrada', 'Recorrência não encontrada.', 404, 'Recorrência não encontrada para o idRec informado.'),
  recInvalid: (violacoes: Violacao[]) =>
    problem(
      'RecOperacaoInvalida',
      'Operação inválida.',
      400,
      detailOf('A recorrência não respeita o schema ou está semanticamente errada.', violacoes),
      violacoes,
    ),
  recQueryInvalid: (violacoes: Violacao[]) =>
    problem(
      'RecConsultaInvalida',
      'Consulta inválida.',
      400,
      detailOf('Os parâmetros de consulta da recorrência não respeitam o schema.', violacoes),
      violacoes,
    ),

  solicRecNotFound: () =>
    problem(
      'SolicRecNaoEncontrada',
      'Solicitação de recorrência não encontrada.',
      404,
      'Solicitação de recorrência não encontrada para o idSolicRec informado.',
    ),
  solicRecInvalid: (violacoes: Violacao[]) =>
    problem(
      'SolicRecOperacaoInvalida',
      'Operação inválida.',
      400,
      detailOf('A solicitação de confirmação de recorrência não respeita o schema ou está semanticamente errada.', violacoes),
      violacoes,
    ),

  cobNotFound: () => problem('CobNaoEncontrado', 'Cobrança não encontrada.', 404, 'Cobrança não encontrada para o txid informado.'),
  cobInvalid: (violacoes: Violacao[]) =>
    problem(
      'CobOperacaoInvalida',
      'Cobrança inválida.',
      400,
      detailOf(
        'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
        violacoes,
      ),
      violacoes,
    ),

  cobRNotFound: () => problem('CobRNaoEncontrado', 'Cobrança não encontrada.', 404, 'Cobrança não encontrada para o txid informado.'),
  cobRInvalid: (violacoes: Violacao[]) =>
    problem(
      'CobROperacaoInvalida',
      'Operação inválida.',
      400,
      detailOf('A requisição que busca alterar ou criar uma cobrança recorrente não respeita o _schema_ ou está semanticamente errada.', violacoes),
      violacoes,
    ),

  cobVNotFound: () => problem('CobVNaoEncontrada', 'Cobrança não encontrada.', 404, 'Cobrança com vencimento não encontrada para o txid informado.'),
  cobVInvalid: (violacoes: Violacao[]) =>
    problem(
      'CobVOperacaoInvalida',
      'Cobrança inválida.',
      400,
      detailOf('A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.', violacoes),
      violacoes,
    ),
  cobPayloadNotFound: () =>
    problem('CobPayloadNaoEncontrado', 'Cobrança não encontrada.', 404, 'A cobrança em questão não foi encontrada para a location requisitada.'),
  cobPayloadInvalid: (violacoes: Violacao[]) =>
    problem('CobPayloadOperacaoInvalida', 'Operação inválida.', 400, detailOf('A cobrança existe, mas a requisição é inválida.', violacoes), violacoes),

  pixNotFound: () => problem('PixNaoEncontrado', 'Pix não encontrado.', 404, 'Pix não encontrado para o e2eid informado.'),
  infractionNotFound: () => problem('InfracaoNaoEncontrada', 'Infração não encontrada.', 404, 'Infração representada por {id} não encontrada.'),
  infractionInvalid: (violacoes: Violacao[]) =>
    problem(
      'InfracaoInvalida',
      'Infração inválida.',
      400,
      detailOf('A requisição não respeita o schema ou não faz sentido semanticamente.', violacoes),
      violacoes,
    ),
  infractionOperationInvalid: (detail: string) => problem('InfracaoOperacaoInvalida', 'Operação inválida.', 400, detail),
  refundNotFound: () =>
    problem('PixDevolucaoNaoEncontrada', 'Devolução não encontrada.', 404, 'Devolução representada por {id} não encontrada para o e2eid informado.'),
  refundInvalid: (violacoes: Violacao[]) =>
    problem(
      'PixDevolucaoInvalida',
      'Devolução inválida.',
      400,
      detailOf('A presente requisição de devolução não respeita o schema ou não faz sentido semanticamente.', violacoes),
      violacoes,
    ),

  webhookPixInvalid: (violacoes: Violacao[]) =>
    problem(
      'WebhookOperacaoInvalida',
      'Webhook inválido.',
      400,
      detailOf('A presente requisição busca criar um webhook sem respeitar o _schema_.', violacoes),
      violacoes,
    ),
  webhookPixNotFound: () => problem('WebhookNaoEncontrado', 'Webhook não encontrado.', 404, 'O webhook denotado por {chave} não encontra-se estabelecido.'),

  // Payouts: ours, in the BCB's style (the BCB API Pix has no payment initiation). 400 for the schema, 422 for a
  // destination that cannot be paid (a key the DICT does not know).
  payoutNotFound: () => problem('PagamentoNaoEncontrado', 'Pagamento não encontrado.', 404, 'Pagamento não encontrado para o idEnvio informado.'),
  payoutInvalid: (violacoes: Violacao[], status: 400 | 422 = 400) =>
    problem(
      'PagamentoOperacaoInvalida',
      'Operação inválida.',
      status,
      detailOf('A requisição que busca criar ou alterar um pagamento não respeita o _schema_ ou está semanticamente errada.', violacoes),
      violacoes,
    ),
  webhookPayoutInvalid: (violacoes: Violacao[]) =>
    problem(
      'WebhookPagamentosOperacaoInvalida',
      'Webhook inválido.',
      400,
      detailOf('A presente requisição busca criar um webhook sem respeitar o _schema_.', violacoes),
      violacoes,
    ),
  webhookPayoutNotFound: () => problem('WebhookNaoEncontrado', 'Webhook não encontrado.', 404, 'O webhook de pagamentos não encontra-se estabelecido.'),

  locRecNotFound: () => problem('PayloadLocationRecNaoEncontrado', 'Location não encontrada.', 404, 'Location não encontrada para o id informado.'),

  webhookRecInvalid: (violacoes: Violacao[]) =>
    problem(
      'WebhookRecOperacaoInvalida',
      'Webhook inválido.',
      400,
      detailOf('A presente requisição busca criar um webhook sem respeitar o _schema_.', violacoes),
      violacoes,
    ),
  webhookRecNotFound: () => problem('WebhookNaoEncontrado', 'Webhook não encontrado.', 404, 'O webhook de recorrências não encontra-se estabelecido.'),
  webhookCobRInvalid: (violacoes: Violacao[]) =>
    problem(
      'WebhookCobROperacaoInvalida',
      'Webhook inválido.',
      400,
      detailOf('A presente requisição busca criar um webhook sem respeitar o _schema_.', violacoes),
      violacoes,
    ),
  webhookCobRNotFound: () =>
    problem('WebhookNaoEncontrado', 'Webhook não encontrado.', 404, 'O webhook de cobranças recorrentes não encontra-se estabelecido.'),
} as const;

export const violation = (propriedade: string, razao: string, valor?: unknown): Violacao => ({
  razao,
  propriedade,
  ...(valor !== undefined && { valor: typeof valor === 'string' ? valor : JSON.stringify(valor) }),
});
