import type { Devolucao } from './wire';

// The bank's infraction API (Banco Central's MED, outside the standard API Pix: each bank has its own). The narrow
// part the platform needs: an infraction reported on a Pix received, the merchant's defence sent to it, and its
// conclusion, a return of the Pix (a devolução of natureza MED_*) or a rejection. The bank simulator implements it
// (its README "Infractions").

/** Why the payer's bank reports the Pix: fraud, an operational flaw, or a disputed Pix Automático debit. */
export type InfracaoMotivo = 'FRAUDE' | 'FALHA_OPERACIONAL' | 'PIX_AUTOMATICO';

/** ABERTA: awaiting a defence. DEFENDIDA: the receiver defended it. CONCLUIDA: `resultado` says how it ended. */
export type InfracaoStatus = 'ABERTA' | 'DEFENDIDA' | 'CONCLUIDA';

export interface Infracao {
  id: string;
  /** The Pix received that the payer's bank disputes. */
  endToEndId: string;
  motivo: InfracaoMotivo;
  /** What the payer's bank claims, in reais ("150.50"). */
  valor: string;
  /** Until when the receiver may defend (RFC 3339). */
  prazoDefesa: string;
  status: InfracaoStatus;
  criacao: string;
  /** Once CONCLUIDA: the money returned (DEVOLVIDO, `devolucao` the return) or the claim rejected. */
  resultado?: 'DEVOLVIDO' | 'REJEITADO';
  devolucao?: Devolucao;
  conclusao?: string;
}

/** A defence as the bank takes it: the text and what each file is (the files stay with the receiver). */
export interface DefesaInfracao {
  texto: string;
  anexos: { nome: string; tipo: string; tamanho: number }[];
}
