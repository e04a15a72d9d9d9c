import { BankConnectionOptions, BankHttp, segment } from './bank-http';
import type { Infracao, InfracaoMotivo } from './infractions';
import type { CobCompleta, CobRCompleta, CobVCompleta, Devolucao, Pagamento, PagamentoStatus, RecCompleta, SolicRecCompleta } from './wire';

export type PayerDecision = 'ACCEPT' | 'REJECT';

/** How a simulated infraction ends when concluded: the claim returned whole, half of it, or rejected. */
export type DesfechoInfracao = 'DEVOLVER' | 'DEVOLVER_PARCIAL' | 'REJEITAR';

/**
 * The payer and the payer's bank, as the bank simulator plays them (its /sim/... endpoints, apps/bank-simulator
 * README). Only for the sandbox and tests: a real bank has no such endpoints. Same token as the PixBankClient
 * whose resources it acts on.
 */
export class SimulatedPayer {
  private readonly http: BankHttp;

  constructor(baseUrl: string, options: BankConnectionOptions = {}) {
    this.http = new BankHttp(baseUrl, options);
  }

  /** The payer accepts by QR: APROVADA, journey 2; or journey 3 when the recurrence has an activation charge, which is paid in the same step. */
  authorizeRecurrence(idRec: string): Promise<RecCompleta> {
    return this.http.send('POST', `/sim/rec/${segment(idRec)}/authorize`);
  }

  /** The payer refuses by QR: REJEITADA. */
  refuseRecurrence(idRec: string): Promise<RecCompleta> {
    return this.http.send('POST', `/sim/rec/${segment(idRec)}/refuse`);
  }

  /** The payer answers a RECEBIDA solicitation: ACEITA (recurrence APROVADA, journey 1) or REJEITADA (recurrence REJEITADA). */
  answerSolicitation(idSolicRec: string, decision: PayerDecision): Promise<SolicRecCompleta> {
    return this.http.send('POST', `/sim/solicrec/${segment(idSolicRec)}/answer`, { decision });
  }

  /** The payer pays an immediate charge (CONCLUIDA); a charge bound to a recurrence approves it (journey 3). */
  payImmediateCharge(txid: string): Promise<CobCompleta> {
    return this.http.send('POST', `/sim/cob/${segment(txid)}/pay`);
  }

  /** The payer pays a due-date charge the amount of the bank's today (its location's `valor.final`): CONCLUIDA. */
  payDueDateCharge(txid: string): Promise<CobVCompleta> {
    return this.http.send('POST', `/sim/cobv/${segment(txid)}/pay`);
  }

  /**
   * The payer's bank settles the pending attempt (SOLICITADA or AGENDADA) of a recurring charge now, whatever its
   * date: attempt PAGA, charge CONCLUIDA with a `pix` entry. 400 CobROperacaoInvalida when no attempt is pending.
   */
  payRecurringCharge(txid: string): Promise<CobRCompleta> {
    return this.http.send('POST', `/sim/cobr/${segment(txid)}/pay`);
  }

  /**
   * The payer's bank refuses the pending attempt now (REJEITADA, rejeicao AM02): the charge stays ATIVA when its
   * recurrence allows retries (PERMITE_3R_7D), else it is REJEITADA. 400 CobROperacaoInvalida when no attempt is pending.
   */
  failRecurringCharge(txid: string): Promise<CobRCompleta> {
    return this.http.send('POST', `/sim/cobr/${segment(txid)}/fail`);
  }

  /** The bank liquidates a refund now (DEVOLVIDO), as it does by itself a minute after the request. */
  settleRefund(e2eid: string, id: string): Promise<Devolucao> {
    return this.http.send('POST', `/sim/pix/${segment(e2eid)}/devolucao/${segment(id)}/settle`);
  }

  /**
   * The receiving side settles a payout now (POST /sim/pagamentos/{idEnvio}/status): REALIZADO, NAO_REALIZADO or
   * CANCELADO (with `motivo`, or the bank's default reason), or EM_PROCESSAMENTO, which holds it there (no automatic
   * settlement). Pushed like any change. 400 PagamentoOperacaoInvalida once REALIZADO, NAO_REALIZADO or CANCELADO.
   */
  setPayoutStatus(idEnvio: string, status: PagamentoStatus, motivo?: string): Promise<Pagamento> {
    return this.http.send('POST', `/sim/pagamentos/${segment(idEnvio)}/status`, { status, ...(motivo !== undefined && { motivo }) });
  }

  /**
   * The receiving bank sends (part of) a REALIZADO payout back now (POST /sim/pagamentos/{idEnvio}/devolucao): by
   * default what is left, under `id` or the return's rtrId. Pushed like any change. 400 PagamentoOperacaoInvalida otherwise.
   */
  returnPayout(idEnvio: string, body: { valor?: string; id?: string }): Promise<Pagamento> {
    return this.http.send('POST', `/sim/pagamentos/${segment(idEnvio)}/devolucao`, body);
  }

  /**
   * The payer's bank reports an infraction on a Pix received now (POST /sim/infracoes): ABERTA, with how it will end
   * (`desfecho`: the whole claim returned, half of it, or rejected) when concluded.
   */
  openInfraction(body: { endToEndId: string; motivo: InfracaoMotivo; valor: string; prazoDefesa: string; desfecho: DesfechoInfracao }): Promise<Infracao> {
    return this.http.send('POST', '/sim/infracoes', body);
  }

  /**
   * The banks conclude the infraction now (POST /sim/infracoes/{id}/concluir), returning at most `valorBloqueado`
   * (what the receiver still held of the Pix) as a devolução of the natureza its motivo gives; CONCLUIDA once, repeats answer it.
   */
  concludeInfraction(id: string, valorBloqueado: string): Promise<Infracao> {
    return this.http.send('POST', `/sim/infracoes/${segment(id)}/concluir`, { valorBloqueado });
  }

  /** This payer at another "now" (x-simulated-now, as PixBankClient.at); the view shares the connection pool and never closes it. */
  at(now: Date): SimulatedPayer {
    return new SimulatedPayer(this.http.baseUrl, this.http.optionsAt(now));
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
