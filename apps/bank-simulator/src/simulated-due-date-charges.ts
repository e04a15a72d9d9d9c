import { randomBytes } from 'node:crypto';
import type { CobVCompleta, CobVPayload, Problema } from '@pixauto/bank';
import { DataSource, EntityManager } from 'typeorm';
import { SimulatorConfig } from './config';
import { cobVPayload, cobVView, CobVRecord, newDueDateCharge, payDueDateCharge, reviseDueDateCharge, validateNewDueDateCharge } from './domain/due-date-charge';
import { endToEndId } from './domain/identifiers';
import { orRefuse, ProblemException, Problems } from './domain/problems';
import { SimulatedClock } from './simulated-clock';
import { BankStore } from './store/bank-store';
import { WebhookNotifier } from './webhook-notifier';

const refuse = (problem: Problema): never => {
  throw new ProblemException(problem);
};

/**
 * The simulated bank's due-date charges (BCB /cobv), the payload at their location, and the payer paying one: each
 * operation one transaction; a payment is pushed to the Pix webhook of its key after the commit.
 */
export class SimulatedDueDateCharges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BankStore,
    private readonly clock: SimulatedClock,
    private readonly config: SimulatorConfig,
    private readonly notifier: WebhookNotifier,
  ) {}

  /** PUT /cobv/{txid}: a new charge with a location of its own; an existing ATIVA one is revised (as PATCH). */
  put(client: string, txid: string, body: unknown): Promise<CobVCompleta> {
    const now = this.clock.now();
    const input = orRefuse(validateNewDueDateCharge(body, this.clock.today()));
    return this.dataSource.transaction(async (m) => {
      const existing = await this.find(m, client, txid, true);
      if (existing) return this.save(m, client, orRefuse(reviseDueDateCharge(existing, body, this.clock.today())));
      const token = randomBytes(16).toString('hex');
      const cobv = newDueDateCharge(txid, input, `${this.config.publicHost}/qr/v2/cobv/${token}`, now);
      await m.query('INSERT INTO due_date_charges (client, txid, token, record, created_at) VALUES ($1, $2, $3, $4, $5)', [
        client,
        txid,
        token,
        JSON.stringify(cobv),
        now,
      ]);
      return cobVView(cobv, this.config.receiver);
    });
  }

  async get(client: string, txid: string): Promise<CobVCompleta> {
    const cobv = (await this.find(this.dataSource.manager, client, txid)) ?? refuse(Problems.cobVNotFound());
    return cobVView(cobv, this.config.receiver);
  }

  /** PATCH /cobv/{txid}: new terms, or the removal. */
  revise(client: string, txid: string, body: unknown): Promise<CobVCompleta> {
    return this.dataSource.transaction(async (m) => {
      const cobv = (await this.find(m, client, txid, true)) ?? refuse(Problems.cobVNotFound());
      return this.save(m, client, orRefuse(reviseDueDateCharge(cobv, body, this.clock.today())));
    });
  }

  /** GET /qr/v2/cobv/{token} (open: the location is the capability): the payload with the amount of the day (DPP). */
  async payload(token: string, dpp: string | undefined): Promise<CobVPayload> {
    const rows: { record: CobVRecord }[] = await this.dataSource.query('SELECT record FROM due_date_charges WHERE token = $1', [token]);
    const cobv = rows[0]?.record ?? refuse(Problems.cobPayloadNotFound());
    return orRefuse(cobVPayload(cobv, this.config.receiver, this.clock.today(), dpp, this.clock.now()));
  }

  /** /sim/cobv/{txid}/pay: the payer pays today's amount; the Pix goes to the key's webhook once committed. */
  async pay(client: string, txid: string): Promise<CobVCompleta> {
    const now = this.clock.now();
    const paid = await this.dataSource.transaction(async (m) => {
      const cobv = (await this.find(m, client, txid, true)) ?? refuse(Problems.cobVNotFound());
      const done = orRefuse(payDueDateCharge(cobv, endToEndId(this.config.payerIspb, now), this.clock.today(), now));
      await this.save(m, client, done);
      return done;
    });
    const view = cobVView(paid, this.config.receiver);
    const webhook = await this.store.findPixWebhook(this.dataSource.manager, client, paid.chave);
    if (webhook && view.pix) this.notifier.notify(webhook.webhookUrl, { kind: 'pix', pix: view.pix[0] });
    return view;
  }

  private async find(m: EntityManager, client: string, txid: string, lock = false): Promise<CobVRecord | undefined> {
    const rows: { record: CobVRecord }[] = await m.query(`SELECT record FROM due_date_charges WHERE client = $1 AND txid = $2${lock ? ' FOR UPDATE' : ''}`, [
      client,
      txid,
    ]);
    return rows[0]?.record;
  }

  private async save(m: EntityManager, client: string, cobv: CobVRecord): Promise<CobVCompleta> {
    await m.query('UPDATE due_date_charges SET record = $3 WHERE client = $1 AND txid = $2', [client, cobv.txid, JSON.stringify(cobv)]);
    return cobVView(cobv, this.config.receiver);
  }
}
