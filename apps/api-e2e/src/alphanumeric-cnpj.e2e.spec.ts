/** @shared-system */
import { parse } from 'csv-parse/sync';
import { pdfText } from '@pixauto/receipts/testing';
import { alphanumericCnpj } from '@pixauto/testing';
import { freshAlphanumericCnpj, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { call } from './support/http';
import { queryService } from './support/database';
import { brasiliaDay, freshTransactionId, invalid, RECURRENCES, storedFor } from './support/recurrences';
import { RunningSystem, sharedSystem } from './support/running-system';

// The alphanumeric CNPJ (issued since July 2026: 12 capitals and digits, then two check digits) wherever a CNPJ goes,
// through the gateway: the recurrence's debtor, the solicitation's account holder, the Pix charge's payer, both
// payout routes, the payout lookups and the CSV, the receipts' PDFs, and customer limits set, read and enforced on
// it. One wire form (docs/decisions/documents.md): a lowercase or punctuated one, or a wrong check digit, is refused
// with the message any invalid document gets, and leaves nothing behind.

let system: RunningSystem;
let merchant: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
});

const sandbox = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: merchant.sandbox, json });

/** Receita Federal's own example, 12.ABC.345/01DE-35, as it travels. */
const RECEITA_EXAMPLE = '12ABC34501DE35';
/** The ways a merchant may get the form wrong, each refused: a wrong check digit, lowercase, punctuation, a letter in a check digit. */
const MISWRITTEN = ['12ABC34501DE36', '12abc34501de35', '12.ABC.345/01DE-35', '12ABC34501DE3A'];

const payoutToKey = (document_number: string, extra: object = {}) => ({
  transaction_id: freshTransactionId('cnpj'),
  amount: 42.1,
  name: 'Padaria Nova Ltda',
  document_number,
  pix_key: 'financeiro@padaria.example',
  ...extra,
});
const payoutToAccount = (document_number: string) => ({
  transaction_id: freshTransactionId('cnpj'),
  amount: 99.9,
  name: 'Padaria Nova Ltda',
  document_number,
  bank: { ispb: '60701190', account_agency: '0001', account_number: '12345-6' },
});
const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);

it("the fixture's CNPJs are Receita's: its example comes out of the same rule", () => {
  expect(alphanumericCnpj('12ABC34501DE')).toBe(RECEITA_EXAMPLE);
});

describe('a recurrence whose debtor is a company with an alphanumeric CNPJ', () => {
  it('is created and read back with the document as sent', async () => {
    const body = {
      transaction_id: freshTransactionId(),
      debtor: { document_number: RECEITA_EXAMPLE, name: 'Empresa Nova Ltda' },
      schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' },
      amount: 49.9,
      retry_policy: 'NOT_ALLOWED',
    };
    const created = await sandbox('POST', RECURRENCES, body);
    expect(created).toMatchObject({ status: 201, body: { debtor: { document_number: RECEITA_EXAMPLE, name: 'Empresa Nova Ltda' }, status: 'CREATED' } });
    const read = await sandbox('GET', `${RECURRENCES}/${created.body.recurrence_id}`);
    expect(read.body.debtor).toEqual({ document_number: RECEITA_EXAMPLE, name: 'Empresa Nova Ltda' });

    const solicited = await sandbox('POST', '/v2/automatic-pix/solicitations', {
      recurrence_id: created.body.recurrence_id,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      destination: { agency: '0001', account: '123456', document_number: freshAlphanumericCnpj(), ispb: '12345678' },
    });
    expect(solicited).toMatchObject({ status: 201, body: { status: 'CREATED' } });
  });

  it.each(MISWRITTEN)('refuses %s with the message any invalid document gets, and stores nothing', async (document_number) => {
    const transactionId = freshTransactionId();
    const body = {
      transaction_id: transactionId,
      debtor: { document_number, name: 'Empresa Nova Ltda' },
      schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' },
      amount: 49.9,
      retry_policy: 'NOT_ALLOWED',
    };
    expect(await sandbox('POST', RECURRENCES, body)).toEqual(invalid('body.debtor.document_number is invalid'));
    expect(await storedFor(system, merchant.accountId, transactionId)).toEqual({ rows: 0, events: 0, outbox: 0 });
  });

  it('refuses a miswritten one as the solicitation account holder', async () => {
    const created = await sandbox('POST', RECURRENCES, {
      transaction_id: freshTransactionId(),
      debtor: { document_number: freshCpf(), name: 'Maria Souza' },
      schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' },
      amount: 49.9,
      retry_policy: 'NOT_ALLOWED',
    });
    for (const document_number of MISWRITTEN) {
      expect(
        await sandbox('POST', '/v2/automatic-pix/solicitations', {
          recurrence_id: created.body.recurrence_id,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          destination: { agency: '0001', account: '123456', document_number, ispb: '12345678' },
        }),
      ).toEqual(invalid('body.destination.document_number is invalid'));
    }
  });
});

describe('a Pix charge paid by a company with an alphanumeric CNPJ', () => {
  it('is created, paid, refunded, and its refund receipt prints the CNPJ', async () => {
    const payer = freshAlphanumericCnpj();
    const created = await sandbox('POST', '/v2/pix', {
      transaction_id: freshTransactionId('pix'),
      amount: 80.25,
      payer: { document_number: payer, name: 'Empresa Nova Ltda' },
    });
    expect(created).toMatchObject({ status: 201, body: { payer: { document_number: payer, name: 'Empresa Nova Ltda' } } });
    expect((await sandbox('GET', `/v2/pix?id=${created.body.id}`)).body.payer).toEqual({ document_number: payer, name: 'Empresa Nova Ltda' });
    expect((await sandbox('POST', `/v2/sandbox/pix/${created.body.id}/pay`)).body.status).toBe('PAID');

    const refund = await sandbox('POST', '/v2/transactions/refund', { id: created.body.id, refund_id: freshTransactionId('rf').slice(0, 30) });
    expect(refund.status).toBe(201);
    expect((await sandbox('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`)).body.status).toBe('REFUNDED');
    const receipt = await sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refund.body.refund_id}`);
    expect(receipt.status).toBe(200);
    const text = await pdfText(Buffer.from(receipt.body.pdf, 'base64'));
    expect(text).toContain(`${payer.slice(0, 2)}.${payer.slice(2, 5)}.${payer.slice(5, 8)}/${payer.slice(8, 12)}-${payer.slice(12)}`);
  });

  it.each(MISWRITTEN)('refuses a payer of %s, and stores nothing', async (document_number) => {
    const transactionId = freshTransactionId('pix');
    expect(await sandbox('POST', '/v2/pix', { transaction_id: transactionId, amount: 10, payer: { document_number, name: 'Empresa Nova Ltda' } })).toEqual(
      invalid('body.payer.document_number is invalid'),
    );
    expect(await payments('SELECT count(*)::int AS n FROM pix_charges WHERE transaction_id = $1', [transactionId])).toEqual([{ n: 0 }]);
  });
});

describe('payouts to a company with an alphanumeric CNPJ', () => {
  it('both routes take it, document_type says CNPJ, the lookups, the CSV and the receipt carry it as it is', async () => {
    const beneficiary = freshAlphanumericCnpj();
    const toKey = await sandbox('POST', '/v2/payout/pix', payoutToKey(beneficiary));
    const toAccount = await sandbox('POST', '/v2/payout', payoutToAccount(beneficiary));
    for (const created of [toKey, toAccount]) {
      expect(created).toMatchObject({ status: 201, body: { document_number: beneficiary, document_type: 'CNPJ' } });
      expect((await sandbox('POST', `/v2/sandbox/payouts/${created.body.id}/status`, { status: 1 })).body.status).toBe(1);
    }

    expect((await sandbox('GET', `/v2/withdrawals?id=${toKey.body.id}`)).body).toMatchObject({ document_number: beneficiary, document_type: 'CNPJ' });
    const history = await sandbox('GET', `/v2/withdrawals/customer?document_number=${beneficiary}`);
    expect(history).toMatchObject({ status: 200, body: { total: 2 } });
    expect(history.body.data.map((p: { id: number; document_type: string }) => [p.id, p.document_type])).toEqual([
      [toKey.body.id, 'CNPJ'],
      [toAccount.body.id, 'CNPJ'],
    ]);

    const period = `start=${encodeURIComponent(new Date(Date.now() - 120_000).toISOString().slice(0, 19).replace('T', ' '))}&end=${encodeURIComponent(new Date(Date.now() + 120_000).toISOString().slice(0, 19).replace('T', ' '))}`;
    const csv = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/withdrawals/period/csv?${period}`, { headers: { authorization: merchant.sandbox } });
    const rows: Record<string, string>[] = parse(await csv.text(), { columns: true });
    expect(rows.filter((row) => row.document_number === beneficiary).map((row) => row.document_type)).toEqual(['CNPJ', 'CNPJ']);

    const receipt = await sandbox('GET', `/v2/withdrawals/receipt?id=${toKey.body.id}`);
    expect(receipt.status).toBe(200);
    const text = await pdfText(Buffer.from(receipt.body.pdf, 'base64'));
    expect(text).toContain(
      `${beneficiary.slice(0, 2)}.${beneficiary.slice(2, 5)}.${beneficiary.slice(5, 8)}/${beneficiary.slice(8, 12)}-${beneficiary.slice(12)}`,
    );
  });

  it.each(MISWRITTEN)('refuses %s on both routes and in the lookup by customer, and stores nothing', async (document_number) => {
    const [byKey, byAccount] = [payoutToKey(document_number), payoutToAccount(document_number)];
    expect(await sandbox('POST', '/v2/payout/pix', byKey)).toEqual(invalid('body.document_number is invalid'));
    expect(await sandbox('POST', '/v2/payout', byAccount)).toEqual(invalid('body.document_number is invalid'));
    expect(await payments('SELECT count(*)::int AS n FROM payouts WHERE transaction_id = ANY($1)', [[byKey.transaction_id, byAccount.transaction_id]])).toEqual(
      [{ n: 0 }],
    );
    expect(await sandbox('GET', `/v2/withdrawals/customer?document_number=${encodeURIComponent(document_number)}`)).toEqual(
      invalid('document_number is invalid'),
    );
  });

  it('pays a Pix key that is an alphanumeric CNPJ', async () => {
    const key = freshAlphanumericCnpj();
    const created = await sandbox('POST', '/v2/payout/pix', payoutToKey(key, { pix_key: key }));
    expect(created).toMatchObject({ status: 201, body: { document_number: key, document_type: 'CNPJ' } });
  });
});

describe('customer limits on an alphanumeric CNPJ', () => {
  it('are set, read back and enforced on a payout to it', async () => {
    const company = freshAlphanumericCnpj();
    const set = await sandbox('POST', '/v2/limits', { document_number: company, type: 'cashout', mechanism: 'amount', amount: 100 });
    expect(set).toMatchObject({ status: 200, body: { document_number: company, type: 'cashout', mechanism: 'amount', amount: 100 } });
    expect(await sandbox('GET', `/v2/limits?document_number=${company}&type=cashout`)).toMatchObject({
      status: 200,
      body: { document_number: company, amount: 100 },
    });

    const above = payoutToKey(company, { amount: 100.01 });
    expect(await sandbox('POST', '/v2/payout/pix', above)).toEqual({
      status: 400,
      body: { type: 'LimitExceededError', message: `cashout limit exceeded for customer ${company}: 100.01 is above the limit of 100.00 per transaction` },
    });
    expect(await payments('SELECT count(*)::int AS n FROM payouts WHERE transaction_id = $1', [above.transaction_id])).toEqual([{ n: 0 }]);
    expect((await sandbox('POST', '/v2/payout/pix', payoutToKey(company, { amount: 100 }))).status).toBe(201);
  });

  it('are enforced on a Pix charge its payer makes', async () => {
    const company = freshAlphanumericCnpj();
    expect((await sandbox('POST', '/v2/limits', { document_number: company, type: 'cashin', mechanism: 'quantity', quantity: 1 })).status).toBe(200);
    const charge = () =>
      sandbox('POST', '/v2/pix', { transaction_id: freshTransactionId('pix'), amount: 10, payer: { document_number: company, name: 'Empresa Nova Ltda' } });
    expect((await charge()).status).toBe(201);
    expect(await charge()).toEqual({
      status: 400,
      body: {
        type: 'LimitExceededError',
        message: `cashin limit exceeded for customer ${company}: the limit of 1 transaction per day (Brasília time) is reached`,
      },
    });
  });

  it.each(MISWRITTEN)('refuses %s in the body and in the query', async (document_number) => {
    expect(await sandbox('POST', '/v2/limits', { document_number, type: 'cashout', mechanism: 'amount', amount: 100 })).toEqual(
      invalid('body.document_number is invalid'),
    );
    expect(await sandbox('GET', `/v2/limits?document_number=${encodeURIComponent(document_number)}&type=cashout`)).toEqual(
      invalid('query.document_number is invalid'),
    );
  });
});
