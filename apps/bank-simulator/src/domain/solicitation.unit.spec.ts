import { SolicRecord } from './records';
import { advance, answer, cancel, isOpen, newSolicitation, nextStep, reachesPayer } from './solicitation';

const schedule = { sentAfterMs: 250, receivedAfterMs: 750 };
const created = new Date('2025-06-01T12:00:00.000Z');
const at = (ms: number): Date => new Date(created.getTime() + ms);

const solicitation = (ispbParticipante = '91193552', expiresAfterMs = 3_600_000): SolicRecord =>
  newSolicitation(
    'SC1234567820250601abcdefghijk',
    { idRec: 'RN1234567820250601abcdefghijk', expiresAt: at(expiresAfterMs), destinatario: { cpf: '11144477735', conta: '1', ispbParticipante } },
    created,
  );

const statuses = (s: SolicRecord): string[] => s.atualizacao.map((step) => step.status);

describe('the alert travels by itself', () => {
  it('is CRIADA, then ENVIADA, then RECEBIDA on schedule, each step stamped when it fell due', () => {
    const s = solicitation();
    expect(advance(s, at(249), schedule)).toBe(s);
    expect(advance(s, at(250), schedule).status).toBe('ENVIADA');
    const received = advance(s, at(10_000), schedule); // as after a restart: every step due is applied at once
    expect(statuses(received)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA']);
    expect(received.atualizacao.map((step) => step.data)).toEqual([at(0), at(250), at(750)].map((d) => d.toISOString()));
    expect(nextStep(received, schedule)).toEqual({ status: 'EXPIRADA', at: at(3_600_000).getTime() });
  });

  it('stays ENVIADA towards an institution that does not exist (ISPB 9999...)', () => {
    const s = solicitation('99990001');
    expect(reachesPayer(s.destinatario)).toBe(false);
    expect(statuses(advance(s, at(60_000), schedule))).toEqual(['CRIADA', 'ENVIADA']);
  });

  it('expires at its deadline, wherever it is on its way', () => {
    expect(statuses(advance(solicitation('99990001', 5000), at(5000), schedule))).toEqual(['CRIADA', 'ENVIADA', 'EXPIRADA']);
    expect(statuses(advance(solicitation('91193552', 100), at(60_000), schedule))).toEqual(['CRIADA', 'EXPIRADA']);
    const expired = advance(solicitation('91193552', 5000), at(60_000), schedule);
    expect(statuses(expired)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA', 'EXPIRADA']);
    expect(expired.atualizacao[3].data).toBe(at(5000).toISOString());
    expect(isOpen(expired)).toBe(false);
    expect(nextStep(expired, schedule)).toBeUndefined();
  });
});

describe('answer', () => {
  it('accepts or rejects a RECEBIDA solicitation', () => {
    const received = advance(solicitation(), at(1000), schedule);
    const accepted = answer(received, 'ACCEPT', at(2000));
    expect(accepted.ok && accepted.value.status).toBe('ACEITA');
    const rejected = answer(received, 'REJECT', at(2000));
    expect(rejected.ok && rejected.value.status).toBe('REJEITADA');
  });

  it.each(['CRIADA', 'ENVIADA', 'ACEITA', 'CANCELADA', 'EXPIRADA'] as const)('refuses to answer one that is %s', (status) => {
    const result = answer({ ...solicitation(), status }, 'ACCEPT', at(2000));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatchObject({ status: 400, type: 'https://pix.bcb.gov.br/api/v2/error/SolicRecOperacaoInvalida' });
  });
});

describe('cancel', () => {
  it.each(['CRIADA', 'ENVIADA', 'RECEBIDA'] as const)('cancels one that is %s', (status) => {
    const result = cancel({ ...solicitation(), status }, at(100));
    expect(result.ok && result.value.status).toBe('CANCELADA');
  });

  it.each(['ACEITA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const)('refuses to cancel one that is %s', (status) => {
    const result = cancel({ ...solicitation(), status }, at(100));
    expect(!result.ok && result.problem.violacoes?.[0].razao).toBe(
      'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.',
    );
  });
});
