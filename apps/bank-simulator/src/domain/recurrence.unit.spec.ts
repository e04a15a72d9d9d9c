import { approve, expire, hasEnded, newRecurrence, reject, revise } from './recurrence';
import { RecRecord } from './records';

const at = new Date('2025-06-01T12:00:00.000Z');
const later = new Date('2025-06-02T12:00:00.000Z');
const payer = { cpf: '52998224725', ispbParticipante: '87654321' };

const created = (activationTxid?: string): RecRecord =>
  newRecurrence(
    'RN1234567820250601abcdefghijk',
    {
      vinculo: { contrato: 'c1', devedor: { cpf: '52998224725', nome: 'Fulano' } },
      calendario: { dataInicial: '2025-07-01', periodicidade: 'MENSAL' },
      valor: { rec: 3500 },
      politicaRetentativa: 'NAO_PERMITE',
      ...(activationTxid && { activationTxid }),
    },
    at,
  );

const unwrap = <T>(result: { ok: true; value: T } | { ok: false }): T => {
  if (!result.ok) throw new Error('refused');
  return result.value;
};

describe('a recurrence', () => {
  it('starts CRIADA, awaiting the journey', () => {
    expect(created()).toMatchObject({ status: 'CRIADA', tipoJornada: 'AGUARDANDO_DEFINICAO', atualizacao: [{ status: 'CRIADA', data: at.toISOString() }] });
  });

  it('keeps the journey 3 charge only when approved through journey 3', () => {
    const txid = 'a'.repeat(32);
    expect(unwrap(approve(created(txid), 'JORNADA_3', payer, later))).toMatchObject({
      status: 'APROVADA',
      tipoJornada: 'JORNADA_3',
      activationTxid: txid,
      pagador: payer,
    });
    expect(unwrap(approve(created(txid), 'JORNADA_1', payer, later))).toMatchObject({ tipoJornada: 'JORNADA_1', activationTxid: null });
  });

  it('is approved or rejected only while CRIADA', () => {
    const approved = unwrap(approve(created(), 'JORNADA_2', payer, later));
    expect(approve(approved, 'JORNADA_2', payer, later).ok).toBe(false);
    expect(reject(approved, later).ok).toBe(false);
    expect(unwrap(reject(created(), later))).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } });
  });

  it('expires only while CRIADA', () => {
    expect(expire(created(), later).status).toBe('EXPIRADA');
    const approved = unwrap(approve(created(), 'JORNADA_2', payer, later));
    expect(expire(approved, later)).toBe(approved);
  });

  it('is cancelled by the receiving user from CRIADA or APROVADA, never after it ended', () => {
    const cancelled = unwrap(revise(created(), { cancel: true }, later));
    expect(cancelled).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } });
    expect(cancelled.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'CANCELADA']);
    expect(unwrap(revise(unwrap(approve(created(), 'JORNADA_2', payer, later)), { cancel: true }, later)).status).toBe('CANCELADA');
    expect(hasEnded(cancelled)).toBe(true);
    const again = revise(cancelled, { cancel: true }, later);
    expect(!again.ok && again.problem.detail).toBe('A recorrência encontra-se expirada, cancelada ou rejeitada.');
  });

  it('changes loc, dataInicial and the journey 3 charge only while CRIADA; the name also once approved', () => {
    const approved = unwrap(approve(created(), 'JORNADA_2', payer, later));
    const refused = revise(approved, { cancel: false, loc: 2, dataInicial: '2025-08-01' }, later);
    expect(!refused.ok && refused.problem.violacoes?.map((v) => v.propriedade)).toEqual(['rec.loc', 'rec.calendario.dataInicial']);
    expect(unwrap(revise(approved, { cancel: false, devedorNome: 'Fulano Jr' }, later)).vinculo.devedor.nome).toBe('Fulano Jr');
    expect(unwrap(revise(created(), { cancel: false, loc: 7, dataInicial: '2025-08-01' }, later))).toMatchObject({
      locId: 7,
      calendario: { dataInicial: '2025-08-01' },
    });
  });
});
