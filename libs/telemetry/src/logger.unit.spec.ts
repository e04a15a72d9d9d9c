import { Writable } from 'node:stream';
import { createLogger, kafkaLogCreator, NestLogger } from './logger';
import { maskDocuments } from './redaction';
import { requestIdFrom, withRequest } from './request-context';

/** A logger writing to an array of parsed lines. */
function capture(env: NodeJS.ProcessEnv = {}) {
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: createLogger('test-service', destination, env), lines, text };
}

const API_KEY = 'sk_live_8f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e';
const CPF = '52998224725';
const CNPJ = '11444777000161';

describe('log lines', () => {
  it('are one JSON object per event with the service, level, time and message', () => {
    const { logger, lines } = capture();
    logger.info({ route: '/v2/limits' }, 'request');
    expect(lines).toEqual([expect.objectContaining({ service: 'test-service', level: 'info', msg: 'request', route: '/v2/limits', time: expect.any(String) })]);
  });

  it('carry the request id of the work in hand', () => {
    const { logger, lines } = capture();
    withRequest({ requestId: 'req-42' }, () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0].request_id).toBe('req-42');
    expect(lines[1]).not.toHaveProperty('request_id');
  });

  it('follow LOG_LEVEL', () => {
    const { logger, lines } = capture({ LOG_LEVEL: 'warn' });
    logger.info('dropped');
    logger.warn('kept');
    expect(lines.map((line) => line.msg)).toEqual(['kept']);
  });

  it('never hold a secret, an API key or a document, at the top of the object or nested', () => {
    const { logger, text } = capture();
    logger.info(
      {
        authorization: API_KEY,
        headers: { authorization: `Bearer ${API_KEY}`, 'x-api-key': API_KEY },
        body: { customer: { document: CPF, name: 'Ana' }, document_number: CNPJ },
        account: {
          banking: { credentials: { client_secret: 'cs_123secret' } },
          webhook_secret: 'whsec_abc',
          sandbox_webhook_secret: 'whsec_sbx',
          previous_secret: 'whsec_old',
        },
        token: 'tok_123secret',
      },
      `refused for ${CPF} and 11.444.777/0001-61`,
    );
    const line = text.join('');
    for (const secret of [API_KEY, CPF, CNPJ, '11.444.777/0001-61', 'cs_123secret', 'whsec_abc', 'whsec_sbx', 'whsec_old', 'tok_123secret'])
      expect(line).not.toContain(secret);
    expect(line).toContain('Ana');
    expect(line).toContain('[redacted]');
  });

  it('through NestJS and kafkajs are JSON too, with their context, and masked', () => {
    const { logger, lines } = capture();
    new NestLogger(logger).log(`customer ${CPF} created`, 'RecurrencesController');
    new NestLogger(logger).error('failed', 'Error: failed\n    at here', 'ServiceReplyFilter');
    kafkaLogCreator(() => logger)()({ namespace: 'Consumer', level: 2, log: { message: 'rebalancing', timestamp: 'x', logger: 'kafkajs', groupId: 'g1' } });
    expect(lines[0]).toEqual(expect.objectContaining({ level: 'info', context: 'RecurrencesController', msg: 'customer *********25 created' }));
    expect(lines[1]).toEqual(expect.objectContaining({ level: 'error', context: 'ServiceReplyFilter', stack: expect.stringContaining('at here') }));
    expect(lines[2]).toEqual(expect.objectContaining({ level: 'warn', component: 'kafkajs', namespace: 'Consumer', groupId: 'g1', msg: 'rebalancing' }));
  });
});

describe('maskDocuments', () => {
  it('masks CPFs and CNPJs, bare or formatted, but for their last two digits', () => {
    expect(maskDocuments(`cpf ${CPF}, cnpj ${CNPJ}, 529.982.247-25`)).toBe('cpf *********25, cnpj ************61, ***.***.***-25');
  });

  it('masks an alphanumeric CNPJ, bare or formatted, but for its check digits', () => {
    expect(maskDocuments('cnpj 12ABC34501DE35, 12.ABC.345/01DE-35, /v2/limits?document_number=12ABC34501DE35&type=cashout')).toBe(
      'cnpj ************35, **.***.***/****-35, /v2/limits?document_number=************35&type=cashout',
    );
  });

  it('leaves an order id of the same shape alone when its check digits do not hold', () => {
    expect(maskDocuments('transaction_id ORDER000000012, 12ABC34501DE36, 12abc34501de35')).toBe(
      'transaction_id ORDER000000012, 12ABC34501DE36, 12abc34501de35',
    );
  });

  it('leaves other numbers alone', () => {
    expect(maskDocuments('amount 1999, epoch 1764072000000, id 3f2a1b4c-0000-4000-8000-123456789012')).toBe(
      'amount 1999, epoch 1764072000000, id 3f2a1b4c-0000-4000-8000-123456789012',
    );
  });
});

describe('requestIdFrom', () => {
  it('keeps a short, plain id the caller sent', () => {
    expect(requestIdFrom('checkout-7f3a.2')).toBe('checkout-7f3a.2');
  });

  it('replaces a missing, long or unsafe one with a UUID', () => {
    for (const header of [undefined, '', 'a'.repeat(129), 'id with spaces', 'id\nforged line', '{"x":1}', ['a', 'b']]) {
      expect(requestIdFrom(header)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('errors in log lines', () => {
  it('keep their message and stack, masked', () => {
    const { logger, lines } = capture();
    logger.error(
      { err: Object.assign(new Error(`no limit for ${CPF}`), { code: 'E1' }), items: [{ secret: 'in-array-secret', note: `doc ${CNPJ}` }] },
      'failed',
    );
    const line = JSON.stringify(lines[0]);
    expect(line).not.toContain(CPF);
    expect(line).not.toContain(CNPJ);
    expect(line).not.toContain('in-array-secret');
    expect(lines[0].err).toEqual(
      expect.objectContaining({ type: 'Error', message: 'no limit for *********25', code: 'E1', stack: expect.stringContaining('logger.unit.spec') }),
    );
  });
});
