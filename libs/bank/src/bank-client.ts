import { BankConnectionOptions, BankHttp, segment } from './bank-http';
import type { DefesaInfracao, Infracao } from './infractions';
import type {
  CobCompleta,
  CobGerada,
  CobRCompleta,
  CobRGerada,
  CobRSolicitada,
  CobSolicitada,
  CobVCompleta,
  CobVGerada,
  CobVSolicitada,
  Devolucao,
  DevolucaoSolicitada,
  LocRec,
  Pagamento,
  PagamentoSolicitado,
  PixRecebido,
  RecCompleta,
  RecGerada,
  RecRevisada,
  RecSolicitada,
  SolicRecCompleta,
  SolicRecSolicitada,
  WebhookCobR,
  WebhookPagamentos,
  WebhookPix,
  WebhookRec,
} from './wire';

/**
 * The one HTTP client to the bank behind the platform, speaking the BCB API Pix (2.9.0) subset of Pix
 * Automático. Production and sandbox use this same class, each with its own base URL and token.
 * Every refusal of the bank is thrown as RefusalException(ProviderError) with the bank's HTTP status, reason
 * and violations; a bank that cannot be reached as RefusalException(unavailable).
 * `at(now)` is the same client for a sandbox tenant whose test clock runs ahead of real time.
 */
export class PixBankClient {
  private readonly http: BankHttp;

  constructor(baseUrl: string, options: BankConnectionOptions = {}) {
    this.http = new BankHttp(baseUrl, options);
  }

  /** POST /locrec → 201: a location for a recurrence's QR (bound to the recurrence that names it in `loc`). */
  createRecurrenceLocation(): Promise<LocRec> {
    return this.http.send('POST', '/locrec');
  }

  /** GET /locrec/{id} */
  getRecurrenceLocation(id: number): Promise<LocRec> {
    return this.http.send('GET', `/locrec/${segment(String(id))}`);
  }

  /** POST /rec → 201 CRIADA. Journey 3: create the immediate charge first and name its txid in ativacao.dadosJornada. */
  createRecurrence(body: RecSolicitada): Promise<RecGerada> {
    return this.http.send('POST', '/rec', body);
  }

  /** GET /rec/{idRec}; with txid (the journey 3 charge), dadosQR carries the composite QR of charge + recurrence. */
  getRecurrence(idRec: string, options: { txid?: string } = {}): Promise<RecCompleta> {
    const query = options.txid === undefined ? '' : `?txid=${encodeURIComponent(options.txid)}`;
    return this.http.send('GET', `/rec/${segment(idRec)}${query}`);
  }

  /** PATCH /rec/{idRec} → 200: the debtor's name, the first date or the location (while CRIADA), or CANCELADA. */
  reviseRecurrence(idRec: string, body: RecRevisada): Promise<RecGerada> {
    return this.http.send('PATCH', `/rec/${segment(idRec)}`, body);
  }

  /** PATCH /rec/{idRec} with status CANCELADA → 200. */
  cancelRecurrence(idRec: string): Promise<RecGerada> {
    return this.reviseRecurrence(idRec, { status: 'CANCELADA' });
  }

  /** POST /solicrec → 201 CRIADA: the alert to the payer's institution (journey 1). */
  createSolicitation(body: SolicRecSolicitada): Promise<SolicRecCompleta> {
    return this.http.send('POST', '/solicrec', body);
  }

  /** GET /solicrec/{idSolicRec}: the bank does not notify solicitation changes, so this is polled. */
  getSolicitation(idSolicRec: string): Promise<SolicRecCompleta> {
    return this.http.send('GET', `/solicrec/${segment(idSolicRec)}`);
  }

  /** PATCH /solicrec/{idSolicRec} with status CANCELADA (the spec answers 201): only while CRIADA, ENVIADA or RECEBIDA. */
  cancelSolicitation(idSolicRec: string): Promise<SolicRecCompleta> {
    return this.http.send('PATCH', `/solicrec/${segment(idSolicRec)}`, { status: 'CANCELADA' });
  }

  /** PUT /cob/{txid} → 201: the immediate charge (the journey 3 activation payment); txid is 26 to 35 letters and digits. */
  createImmediateCharge(txid: string, body: CobSolicitada): Promise<CobGerada> {
    return this.http.send('PUT', `/cob/${segment(txid)}`, body);
  }

  /** GET /cob/{txid}: CONCLUIDA with `pix` once paid; an unpaid charge past calendario.expiracao stays ATIVA. */
  getImmediateCharge(txid: string): Promise<CobCompleta> {
    return this.http.send('GET', `/cob/${segment(txid)}`);
  }

  /**
   * PATCH /cob/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR → 200 (revisao + 1): the charge can no longer be
   * paid. Only while ATIVA (400 CobOperacaoInvalida otherwise).
   */
  removeImmediateCharge(txid: string): Promise<CobGerada> {
    return this.http.send('PATCH', `/cob/${segment(txid)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  }

  /** PUT /cobv/{txid} → 201: a due-date charge, payable up to its due date plus its validity. */
  createDueDateCharge(txid: string, body: CobVSolicitada): Promise<CobVGerada> {
    return this.http.send('PUT', `/cobv/${segment(txid)}`, body);
  }

  /** GET /cobv/{txid}: CONCLUIDA with `pix` once paid. */
  getDueDateCharge(txid: string): Promise<CobVCompleta> {
    return this.http.send('GET', `/cobv/${segment(txid)}`);
  }

  /** PATCH /cobv/{txid} → 200 (revisao + 1): new terms of an ATIVA charge. */
  reviseDueDateCharge(txid: string, body: Partial<CobVSolicitada>): Promise<CobVGerada> {
    return this.http.send('PATCH', `/cobv/${segment(txid)}`, body);
  }

  /** PATCH /cobv/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR: the charge can no longer be paid. Only while ATIVA. */
  removeDueDateCharge(txid: string): Promise<CobVGerada> {
    return this.http.send('PATCH', `/cobv/${segment(txid)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  }

  /** GET /pix/{e2eid}: a Pix received (a paid immediate charge), for reconciliation; 404 PixNaoEncontrado otherwise. */
  getReceivedPix(e2eid: string): Promise<PixRecebido> {
    return this.http.send('GET', `/pix/${segment(e2eid)}`);
  }

  /**
   * PUT /pix/{e2eid}/devolucao/{id} → 201 EM_PROCESSAMENTO: a refund of a Pix received. The id (1 to 35 letters and
   * digits) is ours and unique per Pix: a repeat is 400 PixDevolucaoInvalida, so after a doubt ask with getRefund first.
   */
  requestRefund(e2eid: string, id: string, body: DevolucaoSolicitada): Promise<Devolucao> {
    return this.http.send('PUT', `/pix/${segment(e2eid)}/devolucao/${segment(id)}`, body);
  }

  /** GET /pix/{e2eid}/devolucao/{id}: DEVOLVIDO (with horario.liquidacao) once the bank liquidated it; 404 PixDevolucaoNaoEncontrada. */
  getRefund(e2eid: string, id: string): Promise<Devolucao> {
    return this.http.send('GET', `/pix/${segment(e2eid)}/devolucao/${segment(id)}`);
  }

  /** GET /infracoes/{id}: an infraction reported on a Pix received (the bank's own API, not the BCB's); 404 InfracaoNaoEncontrada. */
  getInfraction(id: string): Promise<Infracao> {
    return this.http.send('GET', `/infracoes/${segment(id)}`);
  }

  /** POST /infracoes/{id}/defesa → 200 DEFENDIDA: the receiver's defence, once, until prazoDefesa; 400 InfracaoOperacaoInvalida otherwise. */
  defendInfraction(id: string, body: DefesaInfracao): Promise<Infracao> {
    return this.http.send('POST', `/infracoes/${segment(id)}/defesa`, body);
  }

  /** PUT /webhook/{chave} → 200: the bank POSTs {webhookUrl}/pix ({pix: [...]}) when charges on this key are paid. */
  async configurePixWebhook(chave: string, webhookUrl: string): Promise<void> {
    await this.http.send('PUT', `/webhook/${segment(chave)}`, { webhookUrl });
  }

  /** GET /webhook/{chave} */
  getPixWebhook(chave: string): Promise<WebhookPix> {
    return this.http.send('GET', `/webhook/${segment(chave)}`);
  }

  /** DELETE /webhook/{chave} → 204 */
  async deletePixWebhook(chave: string): Promise<void> {
    await this.http.send('DELETE', `/webhook/${segment(chave)}`);
  }

  /**
   * PUT /pagamentos/{idEnvio} (the simulator's payout API: the BCB API Pix has no payment initiation) → 201
   * EM_PROCESSAMENTO; the same idEnvio again → 200 with the payment as it is (whatever the body), so a repeat after a
   * crash adopts it. idEnvio is 1 to 35 letters and digits. A key the DICT does not know is 422 PagamentoOperacaoInvalida.
   */
  createPayout(idEnvio: string, body: PagamentoSolicitado): Promise<Pagamento> {
    return this.http.send('PUT', `/pagamentos/${segment(idEnvio)}`, body);
  }

  /** GET /pagamentos/{idEnvio}; 404 PagamentoNaoEncontrado. */
  getPayout(idEnvio: string): Promise<Pagamento> {
    return this.http.send('GET', `/pagamentos/${segment(idEnvio)}`);
  }

  /** PUT /webhookpagamentos → 200: the bank POSTs {webhookUrl}/pagamentos ({pagamentos: [...]}) on a payout's creation and every status change. */
  async configurePayoutWebhook(webhookUrl: string): Promise<void> {
    await this.http.send('PUT', '/webhookpagamentos', { webhookUrl });
  }

  /** GET /webhookpagamentos */
  getPayoutWebhook(): Promise<WebhookPagamentos> {
    return this.http.send('GET', '/webhookpagamentos');
  }

  /** DELETE /webhookpagamentos → 204 */
  async deletePayoutWebhook(): Promise<void> {
    await this.http.send('DELETE', '/webhookpagamentos');
  }

  /** PUT /webhookrec → 200: the bank POSTs {webhookUrl}/rec on every recurrence status change. */
  async configureRecurrenceWebhook(webhookUrl: string): Promise<void> {
    await this.http.send('PUT', '/webhookrec', { webhookUrl });
  }

  /** GET /webhookrec */
  getRecurrenceWebhook(): Promise<WebhookRec> {
    return this.http.send('GET', '/webhookrec');
  }

  /** DELETE /webhookrec → 204 */
  async deleteRecurrenceWebhook(): Promise<void> {
    await this.http.send('DELETE', '/webhookrec');
  }

  /**
   * PUT /cobr/{txid} → 201 ATIVA, with one attempt (tentativa AGND) AGENDADA on calendario.dataDeVencimento. The
   * recurrence must be APROVADA; one live charge (not REJEITADA or CANCELADA) per recurrence and cycle.
   */
  createRecurringCharge(txid: string, body: CobRSolicitada): Promise<CobRGerada> {
    return this.http.send('PUT', `/cobr/${segment(txid)}`, body);
  }

  /** GET /cobr/{txid}: status, attempts (tentativas) and, once paid, `pix`. */
  getRecurringCharge(txid: string): Promise<CobRCompleta> {
    return this.http.send('GET', `/cobr/${segment(txid)}`);
  }

  /** PATCH /cobr/{txid} with status CANCELADA → 200: only while CRIADA or ATIVA and before the first attempt's date. */
  cancelRecurringCharge(txid: string): Promise<CobRGerada> {
    return this.http.send('PATCH', `/cobr/${segment(txid)}`, { status: 'CANCELADA' });
  }

  /**
   * POST /cobr/{txid}/retentativa/{date} → 201: a new attempt (NTAG) on `date` (YYYY-MM-DD), for a PERMITE_3R_7D
   * recurrence, an ATIVA charge with no pending attempt, a future date 1 to 7 days after the due date, at most 3 retries.
   */
  retryRecurringCharge(txid: string, date: string): Promise<CobRCompleta> {
    return this.http.send('POST', `/cobr/${segment(txid)}/retentativa/${segment(date)}`);
  }

  /** PUT /webhookcobr → 200: the bank POSTs {webhookUrl}/cobr on every status change of a recurring charge or of its attempts. */
  async configureRecurringChargeWebhook(webhookUrl: string): Promise<void> {
    await this.http.send('PUT', '/webhookcobr', { webhookUrl });
  }

  /** GET /webhookcobr */
  getRecurringChargeWebhook(): Promise<WebhookCobR> {
    return this.http.send('GET', '/webhookcobr');
  }

  /** DELETE /webhookcobr → 204 */
  async deleteRecurringChargeWebhook(): Promise<void> {
    await this.http.send('DELETE', '/webhookcobr');
  }

  /**
   * This client at another "now": every request carries `x-simulated-now`, which the bank simulator takes as its
   * clock for that request when it is later than real time (a sandbox tenant's test clock). The view shares this
   * client's connection pool; closing the view leaves the pool open.
   */
  at(now: Date): PixBankClient {
    return new PixBankClient(this.http.baseUrl, this.http.optionsAt(now));
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
