import {
  validateChargeRemoval,
  validateDecision,
  validateIdEnvio,
  validateNewCharge,
  validateNewPayout,
  validateNewRecurrence,
  validateNewRecurringCharge,
  validateNewSolicitation,
  validatePayoutStatusChange,
  validatePixWebhook,
  validateRecurrenceRevision,
  validateRecurringChargeRevision,
  validateSolicitationRevision,
  validateWebhookUrl,
} from './validation';
import { Problems } from './problems';

const today = '2025-06-01';
const now = new Date('2025-06-01T12:00:00.000Z');
const properties = (result: { ok: boolean; problem?: { violacoes?: { propriedade?: string }[] } }) => result.problem?.violacoes?.map((v) => v.propriedade);

const recurrence = (overrides: Record<string, unknown> = {}) => ({
  vinculo: { contrato: '63100862', devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, objeto: 'Streaming' },
  calendario: { dataInicial: '2025-06-01', dataFinal: '2026-06-01', periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'NAO_PERMITE',
  ...overrides,
});

describe('POST /rec', () => {
  it('accepts the spec example shape, today as first date, amounts in centavos', () => {
    const result = validateNewRecurrence(
      recurrence({ loc: 108, ativacao: { dadosJornada: { txid: '33beb661beda44a8928fef47dbeb2dc5' } }, recebedor: { convenio: 'Master' } }),
      today,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        vinculo: { contrato: '63100862', devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, objeto: 'Streaming' },
        calendario: { dataInicial: '2025-06-01', dataFinal: '2026-06-01', periodicidade: 'MENSAL' },
        valor: { rec: 3500 },
        politicaRetentativa: 'NAO_PERMITE',
        loc: 108,
        convenio: 'Master',
        activationTxid: '33beb661beda44a8928fef47dbeb2dc5',
      },
    });
  });

  it('accepts a CNPJ debtor and a receiver floor instead of a fixed amount', () => {
    const result = validateNewRecurrence(
      recurrence({ vinculo: { contrato: 'c', devedor: { cnpj: '11222333000181', nome: 'Empresa' } }, valor: { valorMinimoRecebedor: '5000.00' } }),
      today,
    );
    expect(result.ok && result.value.valor).toEqual({ minimoRecebedor: 500000 });
  });

  it.each([
    [{ vinculo: { contrato: 'c', devedor: { cpf: '52998224724', nome: 'X' } } }, ['rec.vinculo.devedor.cpf']],
    [{ vinculo: { contrato: 'c', devedor: { cpf: '52998224725', cnpj: '11222333000181', nome: 'X' } } }, ['rec.vinculo.devedor']],
    [{ vinculo: { contrato: 'x'.repeat(36), devedor: { cpf: '52998224725', nome: 'n'.repeat(141) } } }, ['rec.vinculo.contrato', 'rec.vinculo.devedor.nome']],
    [{ calendario: { dataInicial: '2025-05-31', periodicidade: 'MENSAL' } }, ['rec.calendario.dataInicial']],
    [{ calendario: { dataInicial: '2025-02-30', periodicidade: 'DIARIA' } }, ['rec.calendario.dataInicial', 'rec.calendario.periodicidade']],
    [{ calendario: { dataInicial: '2025-07-01', dataFinal: '2025-06-30', periodicidade: 'MENSAL' } }, ['rec.calendario.dataFinal']],
    [{ valor: { valorRec: '35' } }, ['rec.valor.valorRec']],
    [{ valor: { valorRec: '0.00' } }, ['rec.valor.valorRec']],
    [{ valor: { valorRec: '1.00', valorMinimoRecebedor: '2.00' } }, ['rec.valor']],
    [{ politicaRetentativa: 'SEMPRE' }, ['rec.politicaRetentativa']],
    [{ loc: '108' }, ['rec.loc']],
    [{ ativacao: { dadosJornada: { txid: 'short' } } }, ['rec.ativacao.dadosJornada.txid']],
    [{ vinculo: undefined, calendario: undefined }, ['rec.vinculo', 'rec.calendario']],
  ])('refuses %j naming %j', (overrides, expected) => {
    const result = validateNewRecurrence(recurrence(overrides), today);
    expect(result.ok).toBe(false);
    expect(properties(result as never)).toEqual(expected);
    expect(!result.ok && result.problem).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida',
      status: 400,
      title: 'Operação inválida.',
    });
  });

  it('uses the one violation as the detail, and a generic detail for several', () => {
    const one = validateNewRecurrence(recurrence({ politicaRetentativa: 'X' }), today);
    expect(!one.ok && one.problem.detail).toBe('O campo rec.politicaRetentativa não respeita o schema.');
    const two = validateNewRecurrence(recurrence({ politicaRetentativa: 'X', loc: 0 }), today);
    expect(!two.ok && two.problem.detail).toBe('A recorrência não respeita o schema ou está semanticamente errada.');
  });

  it('refuses a body that is not an object', () => {
    expect(properties(validateNewRecurrence([], today) as never)).toEqual(['rec']);
  });
});

describe('PATCH /rec/{idRec}', () => {
  it('reads cancellation and revisions', () => {
    expect(validateRecurrenceRevision({ status: 'CANCELADA' }, today)).toEqual({ ok: true, value: { cancel: true } });
    expect(validateRecurrenceRevision({ vinculo: { devedor: { nome: 'Novo' } }, loc: 3, calendario: { dataInicial: '2025-06-02' } }, today)).toEqual({
      ok: true,
      value: { cancel: false, devedorNome: 'Novo', loc: 3, dataInicial: '2025-06-02' },
    });
  });

  it.each([
    [{ status: 'APROVADA' }, ['rec.status']],
    [{ calendario: { dataInicial: '2025-05-01' } }, ['rec.calendario.dataInicial']],
    [{}, ['rec']],
  ])('refuses %j', (body, expected) => {
    expect(properties(validateRecurrenceRevision(body, today) as never)).toEqual(expected);
  });
});

describe('POST /solicrec', () => {
  const body = (destinatario: Record<string, unknown> = {}, dataExpiracaoSolicitacao = '2025-06-02T12:17:11.926Z') => ({
    idRec: 'RN123456782024011577825445612',
    calendario: { dataExpiracaoSolicitacao },
    destinatario: { agencia: '2569', conta: '550689', cpf: '11144477735', ispbParticipante: '91193552', ...destinatario },
  });

  it('accepts the spec example shape', () => {
    const result = validateNewSolicitation(body(), now);
    expect(result.ok && result.value).toEqual({
      idRec: 'RN123456782024011577825445612',
      expiresAt: new Date('2025-06-02T12:17:11.926Z'),
      destinatario: { agencia: '2569', conta: '550689', cpf: '11144477735', ispbParticipante: '91193552' },
    });
  });

  it.each([
    [body({ cpf: '11144477736' }), ['solicrec.destinatario.cpf']],
    [body({ ispbParticipante: '9119355' }), ['solicrec.destinatario.ispbParticipante']],
    [body({ agencia: '12345', conta: '' }), ['solicrec.destinatario.conta', 'solicrec.destinatario.agencia']],
    [body({}, '2025-06-01T11:59:59Z'), ['solicrec.calendario.dataExpiracaoSolicitacao']],
    [body({}, '2025-06-02'), ['solicrec.calendario']],
    [{ ...body(), idRec: 'RN1' }, ['solicrec.idRec']],
  ])('refuses %j', (request, expected) => {
    const result = validateNewSolicitation(request, now);
    expect(properties(result as never)).toEqual(expected);
    expect(!result.ok && result.problem.type).toBe('https://pix.bcb.gov.br/api/v2/error/SolicRecOperacaoInvalida');
  });

  it('PATCH takes status CANCELADA only', () => {
    expect(validateSolicitationRevision({ status: 'CANCELADA' }).ok).toBe(true);
    expect(properties(validateSolicitationRevision({ status: 'ACEITA' }) as never)).toEqual(['solicrec.status']);
  });
});

describe('PUT /cob/{txid}', () => {
  const txid = '7978c0c97ea847e78e8849634473c1f1';

  it('accepts the spec example shape, with the default expiry when none is given', () => {
    const result = validateNewCharge(txid, {
      calendario: { expiracao: 3600 },
      devedor: { cnpj: '11222333000181', nome: 'Empresa de Serviços SA' },
      valor: { original: '37.00', modalidadeAlteracao: 1 },
      chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      solicitacaoPagador: 'Serviço realizado.',
      infoAdicionais: [{ nome: 'Campo 1', valor: 'Informação' }],
    });
    expect(result.ok && result.value).toMatchObject({ amount: 3700, expiracao: 3600, modalidadeAlteracao: 1 });
    expect(validateNewCharge(txid, { valor: { original: '1.00' } })).toEqual({ ok: true, value: { amount: 100, expiracao: 86400 } });
  });

  it.each([
    ['short', { valor: { original: '1.00' } }, ['cob.txid']],
    [txid, { valor: { original: '0.00' } }, ['cob.valor.original']],
    [txid, { valor: { original: '1.0' } }, ['cob.valor.original']],
    [txid, { valor: { original: '1.00' }, calendario: { expiracao: 0 } }, ['cob.calendario.expiracao']],
    [txid, { valor: { original: '1.00' }, devedor: { cpf: '52998224725' } }, ['cob.devedor.nome']],
    [txid, { valor: { original: '1.00' }, solicitacaoPagador: 'x'.repeat(141) }, ['cob.solicitacaoPagador']],
    [txid, {}, ['cob.valor']],
  ])('refuses txid %s with %j', (id, request, expected) => {
    const result = validateNewCharge(id, request);
    expect(properties(result as never)).toEqual(expected);
    expect(!result.ok && result.problem.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
  });
});

describe('PUT /cobr/{txid}', () => {
  const txid = '3136957d93134f2184b369e8f1c0729d';
  // The spec's example cobRBody1, due today.
  const cobr = (overrides: Record<string, unknown> = {}) => ({
    idRec: 'RR1234567820240115abcdefghijk',
    infoAdicional: 'Serviços de Streamming de Música e Filmes.',
    calendario: { dataDeVencimento: today },
    valor: { original: '106.07' },
    ajusteDiaUtil: true,
    devedor: { cep: '89256-140', cidade: 'Uberlândia', email: 'sebastiao.tavares@mail.com', logradouro: 'Alameda Franco 1056', uf: 'MG' },
    recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
    ...overrides,
  });

  it('accepts the spec example, the amount in centavos', () => {
    expect(validateNewRecurringCharge(txid, cobr(), today)).toEqual({
      ok: true,
      value: {
        idRec: 'RR1234567820240115abcdefghijk',
        dataDeVencimento: today,
        amount: 10607,
        ajusteDiaUtil: true,
        recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
        devedor: { email: 'sebastiao.tavares@mail.com', logradouro: 'Alameda Franco 1056', cidade: 'Uberlândia', uf: 'MG', cep: '89256-140' },
        infoAdicional: 'Serviços de Streamming de Música e Filmes.',
      },
    });
    const bare = validateNewRecurringCharge(
      txid,
      cobr({ devedor: undefined, infoAdicional: undefined, recebedor: { conta: '1', tipoConta: 'PAGAMENTO' } }),
      today,
    );
    expect(bare.ok && bare.value).toMatchObject({ recebedor: { conta: '1', tipoConta: 'PAGAMENTO' } });
    expect(bare.ok && 'devedor' in bare.value).toBe(false);
  });

  it('refuses a due date before today with the spec text', () => {
    const result = validateNewRecurringCharge(txid, cobr({ calendario: { dataDeVencimento: '2025-05-31' } }), today);
    expect(!result.ok && result.problem).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
      status: 400,
      detail: 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.',
    });
  });

  it('names every field off its schema at once', () => {
    const result = validateNewRecurringCharge(
      'short',
      {
        idRec: 'RR123',
        calendario: { dataDeVencimento: '2025-02-30' },
        valor: { original: '10' },
        ajusteDiaUtil: 'sim',
        devedor: { uf: 'Minas' },
        recebedor: { conta: '1', tipoConta: 'OUTRA' },
        infoAdicional: 'x'.repeat(141),
      },
      today,
    );
    expect(properties(result)).toEqual([
      'cobr.txid',
      'cobr.idRec',
      'cobr.calendario',
      'cobr.valor',
      'cobr.ajusteDiaUtil',
      'cobr.recebedor',
      'cobr.devedor',
      'cobr.infoAdicional',
    ]);
  });

  it('requires recebedor and ajusteDiaUtil, refuses a zero amount and a body that is not an object', () => {
    expect(properties(validateNewRecurringCharge(txid, cobr({ recebedor: undefined, ajusteDiaUtil: undefined, valor: { original: '0.00' } }), today))).toEqual([
      'cobr.valor',
      'cobr.ajusteDiaUtil',
      'cobr.recebedor',
    ]);
    expect(properties(validateNewRecurringCharge(txid, [], today))).toEqual(['cobr']);
  });

  it('PATCH takes status CANCELADA only', () => {
    expect(validateRecurringChargeRevision({ status: 'CANCELADA' })).toEqual({ ok: true, value: 'CANCELADA' });
    expect(properties(validateRecurringChargeRevision({ status: 'ATIVA' }))).toEqual(['cobr.status']);
  });
});

describe('webhook and payer decisions', () => {
  it('takes an absolute http(s) webhook URL', () => {
    expect(validateWebhookUrl({ webhookUrl: 'https://usuario.recebedor.com/api/webhookrec/' })).toEqual({
      ok: true,
      value: 'https://usuario.recebedor.com/api/webhookrec/',
    });
    expect(properties(validateWebhookUrl({ webhookUrl: 'ftp://x' }) as never)).toEqual(['webhookUrl']);
    expect(properties(validateWebhookUrl({}) as never)).toEqual(['webhookUrl']);
    const cobr = validateWebhookUrl({ webhookUrl: 'not a url' }, Problems.webhookCobRInvalid);
    expect(!cobr.ok && cobr.problem.type).toBe('https://pix.bcb.gov.br/api/v2/error/WebhookCobROperacaoInvalida');
  });

  it('takes ACCEPT or REJECT', () => {
    expect(validateDecision({ decision: 'ACCEPT' })).toEqual({ ok: true, value: 'ACCEPT' });
    expect(properties(validateDecision({ decision: 'MAYBE' }) as never)).toEqual(['decision']);
  });
});

describe('PATCH /cob/{txid}', () => {
  it('takes the removal alone', () => {
    expect(validateChargeRemoval({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).toEqual({ ok: true, value: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  });

  it.each([
    [{ status: 'CONCLUIDA' }, 'O campo cob.status não respeita o schema.'],
    [{ valor: { original: '1.00' } }, 'O campo cob.status não respeita o schema.'],
    [null, 'O campo cob.status não respeita o schema.'],
    [
      { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } },
      'A cobrança está ATIVA, e a presente requisição propõe alterar seu status para REMOVIDA_PELO_USUARIO_RECEBEDOR juntamente com outras alterações.',
    ],
  ])('refuses %j as CobOperacaoInvalida', (body, detail) => {
    const result = validateChargeRemoval(body);
    expect(!result.ok && result.problem).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', status: 400, detail });
  });
});

describe('PUT /webhook/{chave}', () => {
  it('takes a DICT key and an http(s) URL', () => {
    expect(validatePixWebhook('7d9f0335-8dcc-4054-9bf9-0dbd61d36906', { webhookUrl: 'https://pix.example.com/api/webhook/' })).toEqual({
      ok: true,
      value: 'https://pix.example.com/api/webhook/',
    });
  });

  it.each([
    ['not a key', { webhookUrl: 'https://x.example.com' }, 'chave'],
    [`${'a'.repeat(70)}@example.com`, { webhookUrl: 'https://x.example.com' }, 'chave'],
    ['+5511987654321', { webhookUrl: 'x' }, 'webhookUrl'],
  ])('refuses %p with %j as WebhookOperacaoInvalida on %s', (chave, body, property) => {
    const result = validatePixWebhook(chave, body);
    expect(properties(result as never)).toEqual([property]);
    expect(!result.ok && result.problem).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida', status: 400 });
  });
});

const payout = (overrides: Record<string, unknown> = {}) => ({
  valor: '12.34',
  destinatario: { chave: 'joao@example.com' },
  favorecido: { nome: 'João da Silva', cpf: '52998224725' },
  ...overrides,
});

describe('PUT /pagamentos/{idEnvio}', () => {
  it.each(['a', 'PIXAUTOP000000000001', 'x'.repeat(35)])('takes %p as an idEnvio', (idEnvio) => {
    expect(validateIdEnvio(idEnvio).ok).toBe(true);
  });

  it.each(['', 'x'.repeat(36), 'com-hifen', 'ação'])('refuses %p as an idEnvio', (idEnvio) => {
    expect(properties(validateIdEnvio(idEnvio) as never)).toEqual(['idEnvio']);
  });

  it('takes a payment to a key, and to an account (tipoConta optional), in centavos', () => {
    expect(validateNewPayout(payout({ infoPagador: 'Reembolso do pedido 12' }))).toEqual({
      ok: true,
      value: {
        amount: 1234,
        destinatario: { chave: 'joao@example.com' },
        favorecido: { nome: 'João da Silva', cpf: '52998224725' },
        infoPagador: 'Reembolso do pedido 12',
      },
    });
    const account = validateNewPayout(
      payout({
        destinatario: { ispb: '60701190', agencia: '1', conta: '12345678901234567890-X', tipoConta: 'POUPANCA' },
        favorecido: { nome: 'Empresa', cnpj: '11222333000181' },
      }),
    );
    expect(account.ok && account.value.destinatario).toEqual({ ispb: '60701190', agencia: '1', conta: '12345678901234567890-X', tipoConta: 'POUPANCA' });
    // Whether the DICT knows the key is not the schema's business (422 later).
    expect(validateNewPayout(payout({ destinatario: { chave: 'naoexiste@example.com' } })).ok).toBe(true);
  });

  it.each([
    [{ valor: '12.3' }, ['valor']],
    [{ valor: 12.34 }, ['valor']],
    [{ valor: '0.00' }, ['valor']],
    [{ valor: undefined }, ['valor']],
    [{ destinatario: undefined }, ['destinatario']],
    [{ destinatario: {} }, ['destinatario']],
    [{ destinatario: { chave: 'a@b.com', ispb: '60701190' } }, ['destinatario']],
    [{ destinatario: { chave: '' } }, ['destinatario.chave']],
    [{ destinatario: { chave: 'x'.repeat(78) } }, ['destinatario.chave']],
    [
      { destinatario: { ispb: '6070119', agencia: '12345', conta: 'abc', tipoConta: 'SALARIO' } },
      ['destinatario.ispb', 'destinatario.agencia', 'destinatario.conta', 'destinatario.tipoConta'],
    ],
    [{ destinatario: { ispb: '60701190', conta: '1' } }, ['destinatario.agencia']],
    [{ destinatario: { ispb: '60701190', agencia: '1', conta: '1'.repeat(21) } }, ['destinatario.conta']],
    [{ favorecido: undefined }, ['favorecido']],
    [{ favorecido: { nome: 'X' } }, ['favorecido']],
    [{ favorecido: { nome: 'X', cpf: '52998224725', cnpj: '11222333000181' } }, ['favorecido']],
    [{ favorecido: { nome: 'X', cpf: '52998224724' } }, ['favorecido.cpf']],
    [{ favorecido: { nome: 'X', cnpj: '1122233300018' } }, ['favorecido.cnpj']],
    [{ favorecido: { nome: 'n'.repeat(201), cpf: '52998224725' } }, ['favorecido.nome']],
    [{ favorecido: { nome: '', cpf: '52998224725' } }, ['favorecido.nome']],
    [{ infoPagador: 'i'.repeat(141) }, ['infoPagador']],
    [{ valor: 'x', destinatario: 'x', favorecido: 'x' }, ['valor', 'destinatario', 'favorecido']],
  ])('refuses %j naming %j', (overrides, expected) => {
    const result = validateNewPayout(payout(overrides));
    expect(properties(result as never)).toEqual(expected);
    expect(!result.ok && result.problem).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/PagamentoOperacaoInvalida',
      status: 400,
      title: 'Operação inválida.',
    });
  });

  it('refuses a body that is not an object', () => {
    expect(properties(validateNewPayout('x') as never)).toEqual(['pagamento']);
  });
});

describe('POST /sim/pagamentos/{idEnvio}/status', () => {
  it.each(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO', 'CANCELADO'])('takes %s', (status) => {
    expect(validatePayoutStatusChange({ status })).toEqual({ ok: true, value: { status } });
  });

  it('takes a reason', () => {
    expect(validatePayoutStatusChange({ status: 'NAO_REALIZADO', motivo: 'Conta encerrada' })).toEqual({
      ok: true,
      value: { status: 'NAO_REALIZADO', motivo: 'Conta encerrada' },
    });
  });

  it.each([
    [{ status: 'DEVOLVIDO' }, ['status']],
    [{}, ['status']],
    [{ status: 'CANCELADO', motivo: 'm'.repeat(141) }, ['motivo']],
  ])('refuses %j naming %j', (body, expected) => {
    const result = validatePayoutStatusChange(body);
    expect(properties(result as never)).toEqual(expected);
  });

  it('names the statuses it takes', () => {
    const result = validatePayoutStatusChange({ status: 'X' });
    expect(!result.ok && result.problem.detail).toBe('O campo status deve ser um de EM_PROCESSAMENTO, REALIZADO, NAO_REALIZADO, CANCELADO.');
  });
});
