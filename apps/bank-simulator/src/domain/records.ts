// What the simulated bank keeps, one record per resource. Money in integer centavos, instants as ISO 8601 UTC;
// the rest in the BCB's own vocabulary, since this is the bank's side of the wire.
import type {
  Atualizacao,
  CalendarioRec,
  CobRStatus,
  CobStatus,
  DadosBancariosRecebedor,
  Destinatario,
  DestinatarioPagamento,
  DevedorCobR,
  Encerramento,
  EncerramentoCobR,
  PagadorRec,
  PagamentoStatus,
  Pessoa,
  PixAutomatico,
  PoliticaRetentativa,
  RecStatus,
  SolicRecStatus,
  TentativaCobR,
  TipoJornada,
  Vinculo,
} from '@pixauto/bank';
import type { Centavos } from '@pixauto/pix';

export interface RecRecord {
  idRec: string;
  status: RecStatus;
  vinculo: Vinculo;
  calendario: CalendarioRec;
  valor: { rec?: Centavos; minimoRecebedor?: Centavos };
  politicaRetentativa: PoliticaRetentativa;
  convenio?: string;
  locId: number | null;
  /** The journey 3 immediate charge (ativacao.dadosJornada.txid), while the journey is not defined or is journey 3. */
  activationTxid: string | null;
  tipoJornada: TipoJornada;
  pagador: PagadorRec | null;
  encerramento: Encerramento | null;
  atualizacao: Atualizacao<RecStatus>[];
}

export interface SolicRecord {
  idSolicRec: string;
  idRec: string;
  status: SolicRecStatus;
  createdAt: string;
  expiresAt: string;
  destinatario: Destinatario;
  atualizacao: Atualizacao<SolicRecStatus>[];
}

export interface CobRecord {
  txid: string;
  status: CobStatus;
  createdAt: string;
  /** Seconds payable from createdAt (calendario.expiracao). */
  expiracao: number;
  revisao: number;
  amount: Centavos;
  modalidadeAlteracao?: 0 | 1;
  devedor?: Pessoa;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
  locId: number;
  /** The recurrence this charge activates (journey 3), once one names it. */
  idRec: string | null;
  payment: { endToEndId: string; horario: string } | null;
}

/** A recurring charge (cobr): one cycle's debit under an approved recurrence, and its attempts to settle it. */
export interface CobRRecord {
  txid: string;
  idRec: string;
  status: CobRStatus;
  createdAt: string;
  /** The day it was created in Brasília (calendario.criacao). */
  criacao: string;
  dataDeVencimento: string;
  /** The recurrence's period the due date falls in (cycle.ts); one live charge per recurrence and cycle. */
  cycle: number;
  amount: Centavos;
  ajusteDiaUtil: boolean;
  infoAdicional?: string;
  devedor?: DevedorCobR;
  recebedor: DadosBancariosRecebedor;
  /** Copied from the recurrence (CobRConfiguracao), which cannot change it. */
  politicaRetentativa: PoliticaRetentativa;
  /** The payer's institution (the recurrence's pagador), which names each attempt's endToEndId. */
  payerIspb: string;
  /** Oldest first: the scheduled attempt (AGND), then the retries (NTAG). */
  tentativas: TentativaCobR[];
  pix: PixAutomatico[];
  encerramento: EncerramentoCobR | null;
  atualizacao: Atualizacao<CobRStatus>[];
}

export interface LocationRecord {
  id: number;
  kind: 'rec' | 'cob';
  location: string;
  createdAt: string;
  idRec: string | null;
}

/** A payout (cash-out, our own API): the client's payment to a Pix key or an account, and what became of it. */
export interface PayoutRecord {
  idEnvio: string;
  endToEndId: string;
  amount: Centavos;
  status: PagamentoStatus;
  /** When it was asked for (horario.solicitacao). */
  solicitacao: string;
  /** When it was settled (REALIZADO only). */
  liquidacao?: string;
  destinatario: DestinatarioPagamento;
  infoPagador?: string;
  motivo?: string;
  atualizacao: Atualizacao<PagamentoStatus>[];
  /** What the receiving bank sent back of it, oldest first. */
  devolucoes?: PayoutReturn[];
}

/** A return of a completed payout (pacs.004 from the receiving bank): final on arrival, the money is back. */
export interface PayoutReturn {
  id: string;
  rtrId: string;
  amount: Centavos;
  liquidacao: string;
}

/**
 * A client's webhooks, one of each kind: PUT /webhookrec (callback {webhookUrl}/rec), PUT /webhookcobr
 * ({webhookUrl}/cobr) and PUT /webhookpagamentos ({webhookUrl}/pagamentos). The Pix webhook is per key (PUT /webhook/{chave}).
 */
export type WebhookKind = 'rec' | 'cobr' | 'pagamentos';

/** Every callback address: {webhookUrl}/<kind>. */
export type CallbackKind = WebhookKind | 'pix';

/** The receiving company and its institution, as the simulated bank shows them on every recurrence. */
export interface Receiver {
  cnpj: string;
  nome: string;
  ispb: string;
  city: string;
  /** The DICT key used on immediate charges that name none. */
  chave: string;
}
