import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ProblemException, Problems } from '../domain/problems';
import { FixedClock } from '@pixauto/pix';
import { AsyncResource } from 'node:async_hooks';
import { enterRequestedNow, SimulatedClock } from '../simulated-clock';
import { callbackBody, callbackUrl } from '../webhook-notifier';
import { clientOf } from './bank-client.decorator';
import { problemOf } from './problem.filter';
import { simulatedNowOf } from './simulated-now.hook';

describe('clientOf', () => {
  it('is the same client for the same token, another for another token', () => {
    expect(clientOf('Bearer abc')).toBe(clientOf('bearer abc '));
    expect(clientOf('Bearer abc')).not.toBe(clientOf('Bearer abd'));
    expect(clientOf('Bearer abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([undefined, '', 'abc', 'Basic abc', 'Bearer '])('refuses %p with AcessoNegado', (header) => {
    expect(() => clientOf(header)).toThrow(ProblemException);
  });
});

describe('problemOf', () => {
  it('answers our problems as they are and fastify refusals as BCB problems', () => {
    expect(problemOf(new ProblemException(Problems.recNotFound()))).toEqual(Problems.recNotFound());
    expect(problemOf(new NotFoundException())).toMatchObject({ status: 404, type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado' });
    expect(problemOf(new BadRequestException())).toMatchObject({ status: 400, type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida' });
    expect(problemOf(new PayloadTooLargeException())).toMatchObject({ status: 400 });
    expect(problemOf(new Error('boom'))).toMatchObject({ status: 500, type: 'https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor' });
  });
});

describe('callbackUrl', () => {
  it('appends /rec or /cobr to the configured URL without doubling the slash', () => {
    expect(callbackUrl('https://usuario.recebedor.com/api/webhookrec/', 'rec')).toBe('https://usuario.recebedor.com/api/webhookrec/rec');
    expect(callbackUrl('http://127.0.0.1:3000/hooks', 'rec')).toBe('http://127.0.0.1:3000/hooks/rec');
    expect(callbackUrl('https://usuario.recebedor.com/api/webhookcobr/', 'cobr')).toBe('https://usuario.recebedor.com/api/webhookcobr/cobr');
  });

  it('appends /pix (PUT /webhook/{chave}) and /pagamentos (PUT /webhookpagamentos) likewise', () => {
    expect(callbackUrl('https://pix.example.com/api/webhook/', 'pix')).toBe('https://pix.example.com/api/webhook/pix');
    expect(callbackUrl('http://127.0.0.1:4107/bank/sandbox', 'pagamentos')).toBe('http://127.0.0.1:4107/bank/sandbox/pagamentos');
  });
});

describe('callbackBody', () => {
  it('is WebhookRecBody for recurrences and WebhookCobRBody for recurring charges, in the order they changed', () => {
    const rec = { idRec: 'RN1234567820250101aaaaaaaaaaa', status: 'APROVADA' as const, atualizacao: [] };
    const cobr = { idRec: rec.idRec, txid: 'a'.repeat(32), status: 'ATIVA' as const, atualizacao: [] };
    const paid = { ...cobr, status: 'CONCLUIDA' as const };
    expect(callbackBody([{ kind: 'rec', rec }])).toEqual({ recs: [rec] });
    expect(callbackBody([{ kind: 'cobr', cobr }])).toEqual({ cobsr: [cobr] });
    expect(
      callbackBody([
        { kind: 'cobr', cobr },
        { kind: 'cobr', cobr: paid },
      ]),
    ).toEqual({ cobsr: [cobr, paid] });
  });

  it('is WebhookPixBody for Pix received and {pagamentos} for payouts', () => {
    const pix = { endToEndId: 'E87654321202506010230abcdefghijk', txid: 'a'.repeat(32), valor: '1.00', chave: 'k', horario: '2025-06-01T02:30:00.000Z' };
    expect(
      callbackBody([
        { kind: 'pix', pix },
        { kind: 'pix', pix: { ...pix, endToEndId: 'E2' } },
      ]),
    ).toEqual({ pix: [pix, { ...pix, endToEndId: 'E2' }] });
    const pagamento = {
      idEnvio: 'P1',
      endToEndId: 'E12345678202506010230abcdefghijk',
      valor: '1.00',
      status: 'EM_PROCESSAMENTO' as const,
      horario: { solicitacao: '2025-06-01T02:30:00.000Z' },
      destinatario: { nome: 'X', cpf: '52998224725', ispb: '60701190', nomeBanco: null, codigoBanco: null },
      atualizacao: [],
    };
    expect(callbackBody([{ kind: 'pagamentos', pagamento }])).toEqual({ pagamentos: [pagamento] });
  });
});

describe('simulatedNowOf', () => {
  it('reads an RFC 3339 instant with its offset', () => {
    expect(simulatedNowOf('2030-01-02T03:04:05.678Z')?.toISOString()).toBe('2030-01-02T03:04:05.678Z');
    expect(simulatedNowOf('2030-01-02T00:00:00-03:00')?.toISOString()).toBe('2030-01-02T03:00:00.000Z');
  });

  it.each([undefined, '', 'tomorrow', '2030-01-02', '2030-01-02T03:04:05', '2030-13-45T00:00:00Z', ['2030-01-02T03:04:05Z']])('ignores %p', (header) => {
    expect(simulatedNowOf(header)).toBeUndefined();
  });
});

describe('SimulatedClock', () => {
  const real = new FixedClock('2030-06-01T12:00:00.000Z');
  const clock = new SimulatedClock(real);

  it('is real time outside a request that asks for another instant', () => {
    expect(clock.now().toISOString()).toBe('2030-06-01T12:00:00.000Z');
    expect(clock.today()).toBe('2030-06-01');
  });

  /** As the request hook does, inside an async scope of its own (a request's), so the test's own context stays clean. */
  const asRequest = <T>(instant: Date | undefined, work: () => T): T =>
    new AsyncResource('request').runInAsyncScope(() => {
      enterRequestedNow(instant);
      return work();
    });

  it('is the requested instant when later than real time, real time otherwise, through awaits', async () => {
    const later = await asRequest(new Date('2030-07-01T02:00:00.000Z'), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { now: clock.now().toISOString(), today: clock.today() };
    });
    expect(later).toEqual({ now: '2030-07-01T02:00:00.000Z', today: '2030-06-30' }); // 23:00 in Brasília
    expect(asRequest(new Date('2030-01-01T00:00:00.000Z'), () => clock.now().toISOString())).toBe('2030-06-01T12:00:00.000Z');
    expect(asRequest(undefined, () => clock.now().toISOString())).toBe('2030-06-01T12:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2030-06-01T12:00:00.000Z'); // nothing leaked out of the scopes
  });
});
