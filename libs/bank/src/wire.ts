// The bank's wire: a faithful subset of the BCB API Pix 2.9.0 (libs/bank/reference/bcb-api-pix-openapi-2.9.0.yaml)
// for Pix Automático. Field names are the spec's, in Portuguese; amounts are decimal strings ("35.00")
// and timestamps RFC 3339, as on the wire. Comments name the spec's component each type stands for.

/** RecBase.calendario.periodicidade */
export type Periodicidade = 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
export const PERIODICIDADES: readonly Periodicidade[] = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'];

/** RecConfiguracao.politicaRetentativa */
export type PoliticaRetentativa = 'NAO_PERMITE' | 'PERMITE_3R_7D';
export const POLITICAS_RETENTATIVA: readonly PoliticaRetentativa[] = ['NAO_PERMITE', 'PERMITE_3R_7D'];

/** RecStatus */
export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';

/** SolicRecStatus */
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'REJEITADA' | 'ACEITA' | 'EXPIRADA' | 'CANCELADA';

/** RecAtivacao.ativacao.tipoJornada */
export type TipoJornada = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' | 'AGUARDANDO_DEFINICAO';

/** CobrancaStatus: the status of the record, not whether the charge has expired (the spec says so). */
export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** A person or a company: exactly one of cpf (11 digits) or cnpj (14). */
export type Documento = { cpf: string; cnpj?: never } | { cnpj: string; cpf?: never };

/** PessoaFisicaRecorrencia | PessoaJuridicaRecorrencia (nome up to 140), PessoaFisica | PessoaJuridica (up to 200). */
export type Pessoa = Documento & { nome: string };

/** RecBase.vinculo */
export interface Vinculo {
  objeto?: string;
  contrato: string;
  devedor: Pessoa;
}

/** RecBase.calendario: dates are YYYY-MM-DD. */
export interface CalendarioRec {
  dataInicial: string;
  dataFinal?: string;
  periodicidade: Periodicidade;
}

/** RecBase.valor: a fixed amount (valorRec) or a receiver's floor (valorMinimoRecebedor), never both. */
export interface ValorRec {
  valorRec?: string;
  valorMinimoRecebedor?: string;
}

/** RecAtivacaoSolicitada: the journey 3 immediate charge bound to the recurrence. */
export interface AtivacaoSolicitada {
  dadosJornada?: { txid: string };
}

/** RecSolicitada: the body of POST /rec. */
export interface RecSolicitada {
  vinculo: Vinculo;
  calendario: CalendarioRec;
  valor?: ValorRec;
  politicaRetentativa: PoliticaRetentativa;
  /** PayloadLocationRecId: a location created by POST /locrec. */
  loc?: number;
  recebedor?: { convenio?: string };
  ativacao?: AtivacaoSolicitada;
}

/** RecRevisada: the body of PATCH /rec/{idRec}. */
export interface RecRevisada {
  status?: 'CANCELADA';
  vinculo?: { devedor: { nome: string } };
  loc?: number;
  calendario?: { dataInicial: string };
  ativacao?: AtivacaoSolicitada;
}

/** PayloadLocationRecGerada / PayloadLocationRecCompleta (idRec once bound to a recurrence). */
export interface LocRec {
  id: number;
  location: string;
  criacao: string;
  idRec?: string;
}

export interface Atualizacao<S extends string> {
  status: S;
  data: string;
}

/** RecEncerramento.encerramento: why a recurrence ended. */
export interface Encerramento {
  rejeicao?: { codigo: 'AP13' | 'AP14'; descricao: string };
  cancelamento?: {
    solicitante: 'PSP_PAGADOR' | 'USUARIO_PAGADOR' | 'PSP_RECEBEDOR' | 'USUARIO_RECEBEDOR';
    codigo: 'ACCL' | 'CPCL' | 'DCSD' | 'ERSL' | 'FRUD' | 'PCFD' | 'SLCR' | 'SLDB';
    descricao: string;
  };
}

/** RecAtivacao.ativacao */
export interface Ativacao {
  tipoJornada: TipoJornada;
  dadosJornada?: { txid: string };
}

/** The receiving company as the bank shows it on a recurrence. */
export interface RecebedorRec {
  cnpj: string;
  nome: string;
  convenio?: string;
}

/** DadosPagadorRec.pagador: who authorized, once the recurrence is approved. */
export type PagadorRec = Documento & { ispbParticipante: string; codMun?: string };

/** RecGerada: the answer of POST /rec and PATCH /rec/{idRec}. */
export interface RecGerada {
  idRec: string;
  vinculo: Vinculo;
  calendario: CalendarioRec;
  valor?: ValorRec;
  politicaRetentativa: PoliticaRetentativa;
  recebedor: RecebedorRec;
  status: RecStatus;
  loc?: LocRec;
  atualizacao: Atualizacao<RecStatus>[];
  encerramento?: Encerramento;
  ativacao?: Ativacao;
}

/** RecCompleta: the answer of GET /rec/{idRec}. */
export interface RecCompleta extends RecGerada {
  pagador?: PagadorRec;
  solicitacao?: SolicRecCompleta[];
  /** The QR for the journey asked for (GET /rec/{idRec}?txid= for journey 3), when the locations allow one. */
  dadosQR?: { jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4'; pixCopiaECola: string };
}

/** RecPayload: the recurrence as the payer's institution receives it with a solicitation. */
export interface RecPayload {
  idRec: string;
  vinculo: Vinculo;
  calendario: CalendarioRec;
  valor?: ValorRec;
  politicaRetentativa: PoliticaRetentativa;
  recebedor: { cnpj: string; nome: string; ispbParticipante: string };
  atualizacao: Atualizacao<RecStatus>[];
}

/** SolicRecBase.destinatario: the payer's account that receives the alert. */
export type Destinatario = Documento & { agencia?: string; conta: string; ispbParticipante: string };

/** SolicRecSolicitada: the body of POST /solicrec. */
export interface SolicRecSolicitada {
  idRec: string;
  calendario: { dataExpiracaoSolicitacao: string };
  destinatario: Destinatario;
}

/** SolicRecCompleta */
export interface SolicRecCompleta {
  idSolicRec: string;
  idRec: string;
  calendario: { dataExpiracaoSolicitacao: string };
  destinatario: Destinatario;
  status: SolicRecStatus;
  atualizacao: Atualizacao<SolicRecStatus>[];
  recPayload?: RecPayload;
}

/** CobSolicitada: the body of PUT /cob/{txid}. */
export interface CobSolicitada {
  /** Seconds the charge stays payable from its creation; the bank's default is 86400. */
  calendario: { expiracao?: number };
  devedor?: Pessoa;
  valor: { original: string; modalidadeAlteracao?: 0 | 1 };
  /** The receiver's DICT key (PIX_RECEIVER_KEY). */
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

/** PayloadLocation of an immediate charge. */
export interface LocCob {
  id: number;
  location: string;
  tipoCob: 'cob';
  criacao: string;
}

/** CobGerada: the answer of PUT /cob/{txid}. */
export interface CobGerada {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc?: LocCob;
  location?: string;
  status: CobStatus;
  devedor?: Pessoa;
  valor: { original: string; modalidadeAlteracao?: 0 | 1 };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
  pixCopiaECola?: string;
}

/** Pix: a payment received for a charge (GET /pix/{e2eid}, CobCompleta.pix[], the {webhookUrl}/pix callback). */
export interface PixRecebido {
  endToEndId: string;
  txid?: string;
  valor: string;
  /** The receiver's DICT key the payment was made to. */
  chave?: string;
  horario: string;
  infoPagador?: string;
  /** The refunds asked for this Pix, as they are now. */
  devolucoes?: Devolucao[];
}

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** DevolucaoNatureza: ORIGINAL for a refund of the payment itself (the one the platform asks for). */
export type DevolucaoNatureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

/** DevolucaoSolicitada: PUT /pix/{e2eid}/devolucao/{id}. */
export interface DevolucaoSolicitada {
  valor: string;
  natureza?: 'ORIGINAL';
  descricao?: string;
}

/** Devolucao: a refund of a Pix received; `liquidacao` once DEVOLVIDO, `motivo` when NAO_REALIZADO. */
export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza?: DevolucaoNatureza;
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: DevolucaoStatus;
  motivo?: string;
}

/** CobRevisada limited to what the platform uses: removing an ATIVA charge (PATCH /cob/{txid}). */
export interface CobRevisada {
  status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
}

/** WebhookCompleto of PUT /webhook/{chave}: the answer of GET /webhook/{chave} (cnpj: the receiver's, as the spec requires). */
export interface WebhookPix {
  webhookUrl: string;
  cnpj: string;
  chave: string;
  criacao: string;
}

/** WebhookPixBody: what the bank POSTs to {webhookUrl}/pix when Pix are received on a key with a webhook. */
export interface WebhookPixCallback {
  pix: PixRecebido[];
}

/** CobCompleta: the answer of GET /cob/{txid}. */
export interface CobCompleta extends CobGerada {
  pix?: PixRecebido[];
}

/** CobVValor: the original amount and the due-date rules, each value with two decimals (reais or percent, per modalidade). */
export interface CobVValor {
  original: string;
  multa?: { modalidade: 1 | 2; valorPerc: string };
  juros?: { modalidade: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8; valorPerc: string };
  abatimento?: { modalidade: 1 | 2; valorPerc: string };
  desconto?: { modalidade: 1 | 2; descontoDataFixa: { data: string; valorPerc: string }[] } | { modalidade: 3 | 4 | 5 | 6; valorPerc: string };
}

/** DadosDevedor of a due-date charge: the document and name required, the address and e-mail optional. */
export type DevedorCobV = Pessoa & { email?: string; logradouro?: string; cidade?: string; uf?: string; cep?: string };

/** CobVSolicitada: the body of PUT /cobv/{txid}. */
export interface CobVSolicitada {
  calendario: { dataDeVencimento: string; validadeAposVencimento?: number };
  devedor: DevedorCobV;
  valor: CobVValor;
  /** The receiver's DICT key (PIX_RECEIVER_KEY). */
  chave: string;
  solicitacaoPagador?: string;
}

/** CobVRevisada limited to what the platform sends: new terms (PATCH /cobv/{txid}), or the removal of an ATIVA charge. */
export type CobVRevisada = Partial<CobVSolicitada> | { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' };

/** PayloadLocation of a due-date charge. */
export interface LocCobV {
  id: number;
  location: string;
  tipoCob: 'cobv';
  criacao: string;
}

/** DadosRecebedor: the receiver, with its address (required on a due-date charge). */
export type RecebedorCobV = { cnpj: string; nome: string; logradouro: string; cidade: string; uf: string; cep: string };

/** CobVGerada: the answer of PUT and PATCH /cobv/{txid}. */
export interface CobVGerada {
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  txid: string;
  revisao: number;
  loc?: LocCobV & { txid: string };
  location: string;
  status: CobStatus;
  devedor: DevedorCobV;
  recebedor: RecebedorCobV;
  valor: CobVValor;
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola?: string;
}

/** CobVCompleta: the answer of GET /cobv/{txid}. */
export interface CobVCompleta extends CobVGerada {
  pix?: PixRecebido[];
}

/** CobVPayload: what the payer's bank reads at the charge's location (GET /cobv/{pixUrlAccessToken}), the amount of the day in `valor.final`. */
export interface CobVPayload {
  txid: string;
  revisao: number;
  calendario: { criacao: string; apresentacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  devedor: Pessoa;
  recebedor: RecebedorCobV;
  status: CobStatus;
  valor: { original: string; multa?: string; juros?: string; abatimento?: string; desconto?: string; final: string };
  chave: string;
  solicitacaoPagador?: string;
}

/** WebhookRecCompleto: the answer of GET /webhookrec. */
export interface WebhookRec {
  webhookUrl: string;
  criacao?: string;
}

/** RecNotification: one recurrence in the callback. */
export interface RecNotificacao {
  idRec: string;
  status: RecStatus;
  atualizacao: Atualizacao<RecStatus>[];
  encerramento?: Encerramento;
  ativacao?: Ativacao;
}

/** WebhookRecBody: what the bank POSTs to {webhookUrl}/rec on a recurrence's status change. */
export interface WebhookRecCallback {
  recs: RecNotificacao[];
}

/** CobRStatus: a recurring charge (cobr) at the receiver's bank. */
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';

/** CobRTentativas.tentativas[].status: one attempt to settle a recurring charge. */
export type TentativaCobRStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';

/** CobRTentativas.tentativas[].tipo: AGND the scheduled attempt, NTAG a retry the receiver asked for, RIFL an intraday retry. */
export type TipoTentativaCobR = 'AGND' | 'NTAG' | 'RIFL';

/**
 * The rejection codes of the spec's catalogue (CobRTentativas.tentativas[].rejeicao.codigo). The spec says AC05, AM09,
 * DENC, DS27, DTED, MIDI, MSUC, NITX and RC09 on an attempt also reject the recurring charge itself.
 */
export type CodigoRejeicaoCobR =
  | 'AB10'
  | 'AC05'
  | 'AC06'
  | 'AM02'
  | 'AM09'
  | 'DENC'
  | 'DS27'
  | 'DTED'
  | 'DTNT'
  | 'FBRD'
  | 'IRNT'
  | 'MIDI'
  | 'MSUC'
  | 'NIEC'
  | 'NIPA'
  | 'NITX'
  | 'QUNT'
  | 'RC09'
  | 'UDEI';

export interface RejeicaoCobR {
  codigo: CodigoRejeicaoCobR;
  descricao: string;
}

/** CobRTentativas.tentativas[]: dates YYYY-MM-DD, atualizacao timestamps RFC 3339. */
export interface TentativaCobR {
  dataLiquidacao: string;
  tipo: TipoTentativaCobR;
  status: TentativaCobRStatus;
  endToEndId: string;
  atualizacao: Atualizacao<TentativaCobRStatus>[];
  rejeicao?: RejeicaoCobR;
}

/** CobRAtualizacao.encerramento: why a recurring charge ended (cancelled, or rejected by the payer's side). */
export interface EncerramentoCobR {
  cancelamento?: {
    solicitante: 'PSP_PAGADOR' | 'USUARIO_PAGADOR' | 'PSP_RECEBEDOR' | 'USUARIO_RECEBEDOR';
    codigo: 'ACCT' | 'BLCK' | 'CCLD' | 'FAIL' | 'OTHR' | 'SLBD' | 'SLCR';
    descricao: string;
  };
  rejeicao?: RejeicaoCobR;
}

/** DadosDevedorRecorrencia.devedor: the debtor's contact and address (the document and name are the recurrence's). */
export interface DevedorCobR {
  email?: string;
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

/** DadosBancariosRecebedor.tipoConta */
export type TipoConta = 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
export const TIPOS_CONTA: readonly TipoConta[] = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'];

/** DadosBancariosRecebedor: the receiver's account the charge is paid into. */
export interface DadosBancariosRecebedor {
  agencia?: string;
  conta: string;
  tipoConta: TipoConta;
}

/** CobRSolicitada: the body of PUT /cobr/{txid}. dataDeVencimento is YYYY-MM-DD. */
export interface CobRSolicitada {
  idRec: string;
  calendario: { dataDeVencimento: string };
  valor: { original: string };
  /** Move the settlement to the next business day when the due date is not one. */
  ajusteDiaUtil: boolean;
  recebedor: DadosBancariosRecebedor;
  devedor?: DevedorCobR;
  infoAdicional?: string;
}

/** CobRGerada: the answer of PUT and PATCH /cobr/{txid}; calendario.criacao is YYYY-MM-DD. */
export interface CobRGerada {
  idRec: string;
  txid: string;
  infoAdicional?: string;
  calendario: { criacao: string; dataDeVencimento: string };
  valor: { original: string };
  ajusteDiaUtil: boolean;
  recebedor: DadosBancariosRecebedor & { cnpj: string; nome: string };
  status: CobRStatus;
  devedor?: DevedorCobR;
}

/** PixAutomatico: a payment received for a recurring charge. */
export interface PixAutomatico {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  infoPagador?: string;
}

/** CobRCompleta: the answer of GET /cobr/{txid} and of POST /cobr/{txid}/retentativa/{data}. */
export interface CobRCompleta extends CobRGerada {
  politicaRetentativa: PoliticaRetentativa;
  pix?: PixAutomatico[];
  atualizacao: Atualizacao<CobRStatus>[];
  encerramento?: EncerramentoCobR;
  tentativas?: TentativaCobR[];
}

/** CobRNotification: one recurring charge in the callback. */
export interface CobRNotification {
  idRec: string;
  txid: string;
  status: CobRStatus;
  atualizacao: Atualizacao<CobRStatus>[];
  encerramento?: EncerramentoCobR;
  tentativas?: TentativaCobR[];
  pix?: PixAutomatico[];
}

/** WebhookCobRBody: what the bank POSTs to {webhookUrl}/cobr when a recurring charge or one of its attempts changes status. */
export interface WebhookCobRCallback {
  cobsr: CobRNotification[];
}

/** WebhookCobRCompleto: the answer of GET /webhookcobr. */
export type WebhookCobR = WebhookRec;

// ---- Payouts (cash-out): the simulator's own API, not the BCB's (the BCB API Pix has no payment initiation).
// In the BCB's style and words; apps/bank-simulator README "Payouts".

/** A payout's status at the bank. REALIZADO, NAO_REALIZADO and CANCELADO are final. */
export type PagamentoStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO' | 'CANCELADO';
export const PAGAMENTO_STATUSES: readonly PagamentoStatus[] = ['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO', 'CANCELADO'];

/** Where a payout goes: a Pix key (resolved by the DICT) or an account. ispb 8 digits, agencia ≤ 4 digits, conta ≤ 20 digits (a hyphen and check digit allowed). */
export type DestinatarioSolicitado = { chave: string } | { ispb: string; agencia: string; conta: string; tipoConta?: TipoConta };

/** The body of PUT /pagamentos/{idEnvio}: valor "12.34"; favorecido the holder the payer names (nome ≤ 200, cpf or cnpj). */
export interface PagamentoSolicitado {
  valor: string;
  destinatario: DestinatarioSolicitado;
  favorecido: Pessoa;
  /** Free text for the receiver, ≤ 140. */
  infoPagador?: string;
}

/**
 * The receiving account as the bank resolved it: the holder (nome, cpf|cnpj), the institution (ispb, and its name and
 * COMPE code when the bank knows it, else null), the key it was reached by or the account asked for.
 */
export type DestinatarioPagamento = Documento & {
  chave?: string;
  nome: string;
  ispb: string;
  nomeBanco: string | null;
  codigoBanco: string | null;
  agencia?: string;
  conta?: string;
  tipoConta?: TipoConta;
};

/** A payout: the answer of PUT and GET /pagamentos/{idEnvio} and of /sim/pagamentos/{idEnvio}/status, and each item of the callback. */
export interface Pagamento {
  idEnvio: string;
  /** The Pix end-to-end id: E + the paying bank's ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics. */
  endToEndId: string;
  valor: string;
  status: PagamentoStatus;
  horario: { solicitacao: string; liquidacao?: string };
  destinatario: DestinatarioPagamento;
  infoPagador?: string;
  /** Why it was not made (NAO_REALIZADO) or was cancelled (CANCELADO). */
  motivo?: string;
  /** Every status it had, oldest first (a receiver can order deliveries that overtake each other). */
  atualizacao: Atualizacao<PagamentoStatus>[];
  /** What the receiving bank sent back of it (pacs.004), oldest first; absent when nothing. */
  devolucoes?: DevolucaoPagamento[];
}

/** A return of a completed payout by the receiving bank: its id, the return's end-to-end id, the amount and when. */
export interface DevolucaoPagamento {
  id: string;
  rtrId: string;
  valor: string;
  horario: { liquidacao: string };
}

/** What the bank POSTs to {webhookUrl}/pagamentos (PUT /webhookpagamentos) on a payout's creation and each status change. */
export interface WebhookPagamentosCallback {
  pagamentos: Pagamento[];
}

/** The answer of GET /webhookpagamentos. */
export type WebhookPagamentos = WebhookRec;

/** Violacao */
export interface Violacao {
  razao?: string;
  propriedade?: string;
  valor?: string;
}

/** Problema (RFC 7807): every refusal, as application/problem+json. */
export interface Problema {
  type: string;
  title: string;
  status: number;
  detail?: string;
  correlationId?: string;
  violacoes?: Violacao[];
}

/** The BCB's error type URIs: https://pix.bcb.gov.br/api/v2/error/<TipoErro>. */
export const PROBLEM_TYPE_PREFIX = 'https://pix.bcb.gov.br/api/v2/error/';
