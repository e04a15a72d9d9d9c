// What the simulated bank keeps, one record per resource. Money in integer centavos, instants as ISO 8601 UTC;
// the rest in the BCB's own vocabulary, since this is the bank's side of the wire.
import type {
  Atualizacao,
  CalendarioRec,
  CobStatus,
  Destinatario,
  Encerramento,
  PagadorRec,
  Pessoa,
  PoliticaRetentativa,
  RecStatus,
  SolicRecStatus,
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

export interface LocationRecord {
  id: number;
  kind: 'rec' | 'cob';
  location: string;
  createdAt: string;
  idRec: string | null;
}

/** The receiving company and its institution, as the simulated bank shows them on every recurrence. */
export interface Receiver {
  cnpj: string;
  nome: string;
  ispb: string;
  city: string;
  /** The DICT key used on immediate charges that name none. */
  chave: string;
}
