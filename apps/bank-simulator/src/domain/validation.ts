// The request rules of the BCB spec that matter to the platform, as pure functions. Each refusal names the
// BCB property ("rec.calendario.dataInicial") with the spec's wording of the violation where it has one.
import {
  CalendarioRec,
  DadosBancariosRecebedor,
  Destinatario,
  DevedorCobR,
  Documento,
  PAGAMENTO_STATUSES,
  PagamentoStatus,
  Periodicidade,
  PERIODICIDADES,
  Pessoa,
  PoliticaRetentativa,
  POLITICAS_RETENTATIVA,
  Problema,
  TipoConta,
  TIPOS_CONTA,
  Violacao,
  valorToCentavos,
  Vinculo,
} from '@pixauto/bank';
import { Centavos, compareDates, isValidCalendarDate, isValidCnpj, isValidCpf, pixKeyType } from '@pixauto/pix';
import { ok, Problems, refused, Result, violation } from './problems';

export const TXID = /^[a-zA-Z0-9]{26,35}$/;
export const ID_29 = /^[a-zA-Z0-9]{29}$/;
const ISPB = /^[0-9A-Z]{8}$/;
// RFC 3339 date-time: a date, a time, and an offset (Z or ±hh:mm).
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
export const DEFAULT_EXPIRACAO_SECONDS = 86_400;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max: number, min = 1): value is string => typeof value === 'string' && value.length >= min && value.length <= max;
const schema = (path: string, kind: 'objeto' | 'campo' = 'campo') => `O ${kind} ${path} não respeita o schema.`;

/** cpf or cnpj, exactly one, check digits right (a CNPJ numeric or alphanumeric, as the API Pix types it: ^[0-9A-Z]{14}$). */
function documentOf(value: Json, path: string, violacoes: Violacao[]): Documento | undefined {
  const hasCpf = value.cpf !== undefined;
  const hasCnpj = value.cnpj !== undefined;
  if (hasCpf === hasCnpj) {
    violacoes.push(violation(path, `O objeto ${path} deve ter exatamente um dos campos cpf ou cnpj.`));
    return undefined;
  }
  if (hasCpf) {
    if (typeof value.cpf === 'string' && isValidCpf(value.cpf)) return { cpf: value.cpf };
    violacoes.push(violation(`${path}.cpf`, `O campo ${path}.cpf não é um CPF válido.`, value.cpf));
    return undefined;
  }
  if (typeof value.cnpj === 'string' && isValidCnpj(value.cnpj)) return { cnpj: value.cnpj };
  violacoes.push(violation(`${path}.cnpj`, `O campo ${path}.cnpj não é um CNPJ válido.`, value.cnpj));
  return undefined;
}

function personOf(value: unknown, path: string, maxName: number, violacoes: Violacao[]): Pessoa | undefined {
  if (!isObject(value)) {
    violacoes.push(violation(path, schema(path, 'objeto')));
    return undefined;
  }
  const document = documentOf(value, path, violacoes);
  if (!isText(value.nome, maxName)) violacoes.push(violation(`${path}.nome`, schema(`${path}.nome`)));
  return document && isText(value.nome, maxName) ? { ...document, nome: value.nome } : undefined;
}

export interface NewRecurrence {
  vinculo: Vinculo;
  calendario: CalendarioRec;
  valor: { rec?: Centavos; minimoRecebedor?: Centavos };
  politicaRetentativa: PoliticaRetentativa;
  loc?: number;
  convenio?: string;
  activationTxid?: string;
}

/** POST /rec (RecSolicitada; violations of RecOperacaoInvalida). `today` is the bank's day, YYYY-MM-DD. */
export function validateNewRecurrence(body: unknown, today: string): Result<NewRecurrence> {
  const v: Violacao[] = [];
  if (!isObject(body)) return refused(Problems.recInvalid([violation('rec', schema('rec', 'objeto'))]));

  let vinculo: Vinculo | undefined;
  if (!isObject(body.vinculo)) v.push(violation('rec.vinculo', schema('rec.vinculo', 'objeto')));
  else {
    const { contrato, objeto } = body.vinculo;
    if (!isText(contrato, 35)) v.push(violation('rec.vinculo.contrato', schema('rec.vinculo.contrato'), contrato));
    if (objeto !== undefined && !isText(objeto, 35)) v.push(violation('rec.vinculo.objeto', schema('rec.vinculo.objeto'), objeto));
    const devedor = personOf(body.vinculo.devedor, 'rec.vinculo.devedor', 140, v);
    if (devedor && isText(contrato, 35)) vinculo = { contrato, devedor, ...(typeof objeto === 'string' && { objeto }) };
  }

  const calendario = calendarOf(body.calendario, today, v);
  const valor = valueOf(body.valor, v);

  const politica = body.politicaRetentativa;
  if (!POLITICAS_RETENTATIVA.includes(politica as PoliticaRetentativa))
    v.push(violation('rec.politicaRetentativa', schema('rec.politicaRetentativa'), politica));

  if (body.loc !== undefined && !(Number.isSafeInteger(body.loc) && (body.loc as number) > 0)) v.push(violation('rec.loc', schema('rec.loc'), body.loc));

  let convenio: string | undefined;
  if (body.recebedor !== undefined) {
    if (!isObject(body.recebedor) || (body.recebedor.convenio !== undefined && !isText(body.recebedor.convenio, 60))) {
      v.push(violation('rec.recebedor', schema('rec.recebedor', 'objeto')));
    } else convenio = body.recebedor.convenio as string | undefined;
  }

  const activationTxid = activationOf(body.ativacao, 'rec', v);

  if (v.length > 0 || !vinculo || !calendario || !valor) return refused(Problems.recInvalid(v));
  return ok({
    vinculo,
    calendario,
    valor,
    politicaRetentativa: politica as PoliticaRetentativa,
    ...(body.loc !== undefined && { loc: body.loc as number }),
    ...(convenio !== undefined && { convenio }),
    ...(activationTxid !== undefined && { activationTxid }),
  });
}

function calendarOf(value: unknown, today: string, v: Violacao[]): CalendarioRec | undefined {
  if (!isObject(value)) {
    v.push(violation('rec.calendario', schema('rec.calendario', 'objeto')));
    return undefined;
  }
  const { dataInicial, dataFinal, periodicidade } = value;
  const before = v.length;
  if (typeof dataInicial !== 'string' || isValidCalendarDate(dataInicial) !== 'ok') {
    v.push(violation('rec.calendario.dataInicial', schema('rec.calendario.dataInicial'), dataInicial));
  } else if (compareDates(dataInicial, today) < 0) {
    v.push(violation('rec.calendario.dataInicial', 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', dataInicial));
  }
  if (dataFinal !== undefined) {
    if (typeof dataFinal !== 'string' || isValidCalendarDate(dataFinal) !== 'ok') {
      v.push(violation('rec.calendario.dataFinal', schema('rec.calendario.dataFinal'), dataFinal));
    } else if (typeof dataInicial === 'string' && compareDates(dataFinal, dataInicial) < 0) {
      v.push(violation('rec.calendario.dataFinal', 'O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.', dataFinal));
    }
  }
  if (!PERIODICIDADES.includes(periodicidade as Periodicidade))
    v.push(violation('rec.calendario.periodicidade', schema('rec.calendario.periodicidade'), periodicidade));
  if (v.length > before) return undefined;
  return {
    dataInicial: dataInicial as string,
    ...(dataFinal !== undefined && { dataFinal: dataFinal as string }),
    periodicidade: periodicidade as Periodicidade,
  };
}

function valueOf(value: unknown, v: Violacao[]): NewRecurrence['valor'] | undefined {
  if (value === undefined) return {};
  if (!isObject(value)) {
    v.push(violation('rec.valor', schema('rec.valor', 'objeto')));
    return undefined;
  }
  const before = v.length;
  const rec = value.valorRec === undefined ? undefined : valorToCentavos(value.valorRec);
  const minimo = value.valorMinimoRecebedor === undefined ? undefined : valorToCentavos(value.valorMinimoRecebedor);
  if (value.valorRec !== undefined && !(rec !== undefined && rec > 0)) v.push(violation('rec.valor.valorRec', schema('rec.valor.valorRec'), value.valorRec));
  if (value.valorMinimoRecebedor !== undefined && minimo === undefined) {
    v.push(violation('rec.valor.valorMinimoRecebedor', schema('rec.valor.valorMinimoRecebedor'), value.valorMinimoRecebedor));
  }
  if (value.valorRec !== undefined && value.valorMinimoRecebedor !== undefined) {
    v.push(violation('rec.valor', 'Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.'));
  }
  if (v.length > before) return undefined;
  return { ...(rec !== undefined && { rec }), ...(minimo !== undefined && { minimoRecebedor: minimo }) };
}

function activationOf(value: unknown, prefix: string, v: Violacao[]): string | undefined {
  if (value === undefined) return undefined;
  const path = `${prefix}.ativacao.dadosJornada.txid`;
  if (!isObject(value) || (value.dadosJornada !== undefined && !isObject(value.dadosJornada))) {
    v.push(violation(`${prefix}.ativacao`, schema(`${prefix}.ativacao`, 'objeto')));
    return undefined;
  }
  if (value.dadosJornada === undefined) return undefined;
  const txid = (value.dadosJornada as Json).txid;
  if (typeof txid !== 'string' || !TXID.test(txid)) {
    v.push(violation(path, schema(path), txid));
    return undefined;
  }
  return txid;
}

export interface RecurrenceRevision {
  cancel: boolean;
  devedorNome?: string;
  loc?: number;
  dataInicial?: string;
  activationTxid?: string;
}

/** PATCH /rec/{idRec} (RecRevisada). Rules that depend on the recurrence's status are the recurrence's (recurrence.ts). */
export function validateRecurrenceRevision(body: unknown, today: string): Result<RecurrenceRevision> {
  const v: Violacao[] = [];
  if (!isObject(body)) return refused(Problems.recInvalid([violation('rec', schema('rec', 'objeto'))]));
  const revision: RecurrenceRevision = { cancel: false };
  if (body.status !== undefined) {
    if (body.status === 'CANCELADA') revision.cancel = true;
    else v.push(violation('rec.status', 'O campo rec.status não respeita o schema.', body.status));
  }
  if (body.vinculo !== undefined) {
    const devedor = isObject(body.vinculo) && isObject(body.vinculo.devedor) ? body.vinculo.devedor : undefined;
    if (!devedor || !isText(devedor.nome, 140)) v.push(violation('rec.vinculo.devedor.nome', schema('rec.vinculo.devedor.nome')));
    else revision.devedorNome = devedor.nome;
  }
  if (body.loc !== undefined) {
    if (Number.isSafeInteger(body.loc) && (body.loc as number) > 0) revision.loc = body.loc as number;
    else v.push(violation('rec.loc', schema('rec.loc'), body.loc));
  }
  if (body.calendario !== undefined) {
    const dataInicial = isObject(body.calendario) ? body.calendario.dataInicial : undefined;
    if (typeof dataInicial !== 'string' || isValidCalendarDate(dataInicial) !== 'ok') {
      v.push(violation('rec.calendario.dataInicial', schema('rec.calendario.dataInicial'), dataInicial));
    } else if (compareDates(dataInicial, today) < 0) {
      v.push(violation('rec.calendario.dataInicial', 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', dataInicial));
    } else revision.dataInicial = dataInicial;
  }
  const activationTxid = activationOf(body.ativacao, 'rec', v);
  if (activationTxid !== undefined) revision.activationTxid = activationTxid;
  if (v.length > 0) return refused(Problems.recInvalid(v));
  const changes = revision.cancel || ['devedorNome', 'loc', 'dataInicial', 'activationTxid'].some((k) => k in revision);
  if (!changes) return refused(Problems.recInvalid([violation('rec', 'A requisição não informa nenhum campo a revisar.')]));
  return ok(revision);
}

export interface NewSolicitation {
  idRec: string;
  expiresAt: Date;
  destinatario: Destinatario;
}

/** POST /solicrec (SolicRecSolicitada; violations of SolicRecOperacaoInvalida). */
export function validateNewSolicitation(body: unknown, now: Date): Result<NewSolicitation> {
  const v: Violacao[] = [];
  if (!isObject(body)) return refused(Problems.solicRecInvalid([violation('solicrec', schema('solicrec', 'objeto'))]));
  if (typeof body.idRec !== 'string' || !ID_29.test(body.idRec)) v.push(violation('solicrec.idRec', schema('solicrec.idRec'), body.idRec));

  let expiresAt: Date | undefined;
  const expiry = isObject(body.calendario) ? body.calendario.dataExpiracaoSolicitacao : undefined;
  if (typeof expiry !== 'string' || !DATE_TIME.test(expiry) || Number.isNaN(Date.parse(expiry))) {
    v.push(violation('solicrec.calendario', schema('solicrec.calendario', 'objeto')));
  } else if (Date.parse(expiry) <= now.getTime()) {
    v.push(
      violation(
        'solicrec.calendario.dataExpiracaoSolicitacao',
        'O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação da solicitação da recorrência.',
        expiry,
      ),
    );
  } else expiresAt = new Date(Date.parse(expiry));

  let destinatario: Destinatario | undefined;
  const d = body.destinatario;
  if (!isObject(d)) v.push(violation('solicrec.destinatario', schema('solicrec.destinatario', 'objeto')));
  else {
    const before = v.length;
    if (!isText(d.conta, 20)) v.push(violation('solicrec.destinatario.conta', schema('solicrec.destinatario.conta'), d.conta));
    if (d.agencia !== undefined && !isText(d.agencia, 4))
      v.push(violation('solicrec.destinatario.agencia', schema('solicrec.destinatario.agencia'), d.agencia));
    if (typeof d.ispbParticipante !== 'string' || !ISPB.test(d.ispbParticipante)) {
      v.push(violation('solicrec.destinatario.ispbParticipante', schema('solicrec.destinatario.ispbParticipante'), d.ispbParticipante));
    }
    const document = documentOf(d, 'solicrec.destinatario', v);
    if (document && v.length === before) {
      destinatario = {
        ...document,
        ...(d.agencia !== undefined && { agencia: d.agencia as string }),
        conta: d.conta as string,
        ispbParticipante: d.ispbParticipante as string,
      };
    }
  }
  if (v.length > 0 || !expiresAt || !destinatario) return refused(Problems.solicRecInvalid(v));
  return ok({ idRec: body.idRec as string, expiresAt, destinatario });
}

/** PATCH /solicrec/{idSolicRec} (SolicRecRevisada): status, and only CANCELADA. */
export function validateSolicitationRevision(body: unknown): Result<'CANCELADA'> {
  const status = isObject(body) ? body.status : undefined;
  if (status === 'CANCELADA') return ok(status);
  return refused(Problems.solicRecInvalid([violation('solicrec.status', 'O campo solicrec.status não respeita o schema.', status)]));
}

export interface NewCharge {
  amount: Centavos;
  modalidadeAlteracao?: 0 | 1;
  expiracao: number;
  devedor?: Pessoa;
  chave?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

/** PUT /cob/{txid} (CobSolicitada; violations of CobOperacaoInvalida). */
export function validateNewCharge(txid: string, body: unknown): Result<NewCharge> {
  const v: Violacao[] = [];
  if (!TXID.test(txid)) v.push(violation('cob.txid', schema('cob.txid'), txid));
  if (!isObject(body)) return refused(Problems.cobInvalid([...v, violation('cob', schema('cob', 'objeto'))]));

  let expiracao = DEFAULT_EXPIRACAO_SECONDS;
  if (body.calendario !== undefined) {
    const value = isObject(body.calendario) ? body.calendario.expiracao : undefined;
    if (isObject(body.calendario) && value === undefined) expiracao = DEFAULT_EXPIRACAO_SECONDS;
    else if (!Number.isSafeInteger(value)) v.push(violation('cob.calendario.expiracao', schema('cob.calendario.expiracao'), value));
    else if ((value as number) <= 0) v.push(violation('cob.calendario.expiracao', 'O campo cob.calendario.expiracao é igual ou menor que zero.', value));
    else expiracao = value as number;
  }

  let amount: Centavos | undefined;
  let modalidadeAlteracao: 0 | 1 | undefined;
  if (!isObject(body.valor)) v.push(violation('cob.valor', schema('cob.valor', 'objeto')));
  else {
    amount = valorToCentavos(body.valor.original);
    if (amount === undefined) v.push(violation('cob.valor.original', schema('cob.valor.original'), body.valor.original));
    else if (amount === 0) v.push(violation('cob.valor.original', 'O campo cob.valor.original é zero.', body.valor.original));
    const modalidade = body.valor.modalidadeAlteracao;
    if (modalidade !== undefined && modalidade !== 0 && modalidade !== 1)
      v.push(violation('cob.valor.modalidadeAlteracao', schema('cob.valor.modalidadeAlteracao'), modalidade));
    else modalidadeAlteracao = modalidade as 0 | 1 | undefined;
  }

  const devedor = body.devedor === undefined ? undefined : personOf(body.devedor, 'cob.devedor', 200, v);
  if (body.chave !== undefined && !isText(body.chave, 77)) v.push(violation('cob.chave', schema('cob.chave'), body.chave));
  if (body.solicitacaoPagador !== undefined && !isText(body.solicitacaoPagador, 140, 0)) {
    v.push(violation('cob.solicitacaoPagador', schema('cob.solicitacaoPagador')));
  }
  const extra = body.infoAdicionais;
  const extraOk =
    extra === undefined ||
    (Array.isArray(extra) && extra.length <= 50 && extra.every((item) => isObject(item) && isText(item.nome, 50) && isText(item.valor, 200, 0)));
  if (!extraOk) v.push(violation('cob.infoAdicionais', schema('cob.infoAdicionais', 'objeto')));

  if (v.length > 0 || amount === undefined) return refused(Problems.cobInvalid(v));
  return ok({
    amount,
    expiracao,
    ...(modalidadeAlteracao !== undefined && { modalidadeAlteracao }),
    ...(devedor !== undefined && { devedor }),
    ...(body.chave !== undefined && { chave: body.chave as string }),
    ...(body.solicitacaoPagador !== undefined && { solicitacaoPagador: body.solicitacaoPagador as string }),
    ...(extra !== undefined && { infoAdicionais: extra as { nome: string; valor: string }[] }),
  });
}

export interface NewRecurringCharge {
  idRec: string;
  dataDeVencimento: string;
  amount: Centavos;
  ajusteDiaUtil: boolean;
  recebedor: DadosBancariosRecebedor;
  devedor?: DevedorCobR;
  infoAdicional?: string;
}

// DadosComplementaresPessoa.cep says 8 characters but the spec's own examples write "89256-140": both are taken.
const CEP = /^\d{5}-?\d{3}$/;
const UF = /^[A-Z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** DadosBancariosRecebedor: conta (≤ 20) and tipoConta required, agencia (≤ 4) optional; other fields are ignored. */
function receiverAccountOf(value: unknown): DadosBancariosRecebedor | undefined {
  if (!isObject(value)) return undefined;
  const { agencia, conta, tipoConta } = value;
  if (!isText(conta, 20) || !TIPOS_CONTA.includes(tipoConta as TipoConta)) return undefined;
  if (agencia !== undefined && !isText(agencia, 4)) return undefined;
  return { ...(agencia !== undefined && { agencia: agencia as string }), conta, tipoConta: tipoConta as TipoConta };
}

/** DadosDevedorRecorrencia.devedor: every field optional (email, logradouro ≤ 200, cidade ≤ 200, uf, cep); other fields are ignored. */
function debtorContactOf(value: unknown): DevedorCobR | undefined {
  if (!isObject(value)) return undefined;
  const { email, logradouro, cidade, uf, cep } = value;
  const fits =
    (email === undefined || (isText(email, 140) && EMAIL.test(email))) &&
    (logradouro === undefined || isText(logradouro, 200)) &&
    (cidade === undefined || isText(cidade, 200)) &&
    (uf === undefined || (typeof uf === 'string' && UF.test(uf))) &&
    (cep === undefined || (typeof cep === 'string' && CEP.test(cep)));
  if (!fits) return undefined;
  return {
    ...(email !== undefined && { email: email as string }),
    ...(logradouro !== undefined && { logradouro: logradouro as string }),
    ...(cidade !== undefined && { cidade: cidade as string }),
    ...(uf !== undefined && { uf: uf as string }),
    ...(cep !== undefined && { cep: cep as string }),
  };
}

/**
 * PUT /cobr/{txid} (CobRSolicitada; violations of CobROperacaoInvalida, in the spec's words). `today` is the bank's
 * day. What depends on stored data (the recurrence, the txid in use, the cycle taken) is recurring-charge.ts's.
 */
export function validateNewRecurringCharge(txid: string, body: unknown, today: string): Result<NewRecurringCharge> {
  const v: Violacao[] = [];
  if (!TXID.test(txid)) v.push(violation('cobr.txid', schema('cobr.txid'), txid));
  if (!isObject(body)) return refused(Problems.cobRInvalid([...v, violation('cobr', schema('cobr', 'objeto'))]));

  if (typeof body.idRec !== 'string' || !ID_29.test(body.idRec)) v.push(violation('cobr.idRec', schema('cobr.idRec'), body.idRec));

  const dataDeVencimento = isObject(body.calendario) ? body.calendario.dataDeVencimento : undefined;
  if (typeof dataDeVencimento !== 'string' || isValidCalendarDate(dataDeVencimento) !== 'ok') {
    v.push(violation('cobr.calendario', schema('cobr.calendario', 'objeto'), dataDeVencimento));
  } else if (compareDates(dataDeVencimento, today) < 0) {
    v.push(
      violation('cobr.calendario.dataDeVencimento', 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.', dataDeVencimento),
    );
  }

  const amount = isObject(body.valor) ? valorToCentavos(body.valor.original) : undefined;
  if (amount === undefined || amount === 0) v.push(violation('cobr.valor', schema('cobr.valor'), isObject(body.valor) ? body.valor.original : body.valor));

  if (typeof body.ajusteDiaUtil !== 'boolean') v.push(violation('cobr.ajusteDiaUtil', schema('cobr.ajusteDiaUtil'), body.ajusteDiaUtil));

  const recebedor = receiverAccountOf(body.recebedor);
  if (!recebedor) v.push(violation('cobr.recebedor', schema('cobr.recebedor', 'objeto')));

  const devedor = body.devedor === undefined ? undefined : debtorContactOf(body.devedor);
  if (body.devedor !== undefined && !devedor) v.push(violation('cobr.devedor', schema('cobr.devedor', 'objeto')));

  if (body.infoAdicional !== undefined && !isText(body.infoAdicional, 140, 0)) v.push(violation('cobr.infoAdicional', schema('cobr.infoAdicional')));

  if (v.length > 0 || amount === undefined || !recebedor) return refused(Problems.cobRInvalid(v));
  return ok({
    idRec: body.idRec as string,
    dataDeVencimento: dataDeVencimento as string,
    amount,
    ajusteDiaUtil: body.ajusteDiaUtil as boolean,
    recebedor,
    ...(devedor && { devedor }),
    ...(body.infoAdicional !== undefined && { infoAdicional: body.infoAdicional as string }),
  });
}

/** PATCH /cobr/{txid} (CobRRevisada): status, and only CANCELADA. */
export function validateRecurringChargeRevision(body: unknown): Result<'CANCELADA'> {
  const status = isObject(body) ? body.status : undefined;
  if (status === 'CANCELADA') return ok(status);
  return refused(Problems.cobRInvalid([violation('cobr.status', 'O campo cobr.status não respeita o schema.', status)]));
}

/** PATCH /cob/{txid} (CobRevisada): here only the removal, status REMOVIDA_PELO_USUARIO_RECEBEDOR and nothing else. */
export function validateChargeRemoval(body: unknown): Result<'REMOVIDA_PELO_USUARIO_RECEBEDOR'> {
  const status = isObject(body) ? body.status : undefined;
  if (status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
    return refused(Problems.cobInvalid([violation('cob.status', 'O campo cob.status não respeita o schema.', status)]));
  if (Object.keys(body as Json).length > 1) {
    return refused(
      Problems.cobInvalid([
        violation(
          'cob',
          'A cobrança está ATIVA, e a presente requisição propõe alterar seu status para REMOVIDA_PELO_USUARIO_RECEBEDOR juntamente com outras alterações.',
        ),
      ]),
    );
  }
  return ok(status);
}

/** PUT /webhook/{chave} (WebhookSolicitado; violations of WebhookOperacaoInvalida): a DICT key of a valid format, and the URL. */
export function validatePixWebhook(chave: string, body: unknown): Result<string> {
  if (chave.length > 77 || pixKeyType(chave) === undefined) {
    return refused(Problems.webhookPixInvalid([violation('chave', 'O parâmetro {chave} não corresponde a uma chave DICT válida.', chave)]));
  }
  return validateWebhookUrl(body, Problems.webhookPixInvalid);
}

export const ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;
// The platform's own rules for an account (the bank's ISPB, branch and number as the CSV and the payout record show them).
const ISPB_DIGITS = /^\d{8}$/;
const AGENCIA = /^\d{1,4}$/;
const CONTA = /^\d{1,20}(-[\dXx])?$/;

/** PUT /pagamentos/{idEnvio}: the idEnvio alone (checked before anything, as a repeat answers whatever its body). */
export function validateIdEnvio(idEnvio: string): Result<string> {
  return ID_ENVIO.test(idEnvio) ? ok(idEnvio) : refused(Problems.payoutInvalid([violation('idEnvio', 'O parâmetro idEnvio não respeita o schema.', idEnvio)]));
}

export type PayoutDestination = { chave: string } | { ispb: string; agencia: string; conta: string; tipoConta?: TipoConta };

export interface NewPayout {
  amount: Centavos;
  destinatario: PayoutDestination;
  favorecido: Pessoa;
  infoPagador?: string;
}

const ACCOUNT_FIELDS = ['ispb', 'agencia', 'conta', 'tipoConta'] as const;

function payoutDestinationOf(value: unknown, v: Violacao[]): PayoutDestination | undefined {
  if (!isObject(value)) {
    v.push(violation('destinatario', schema('destinatario', 'objeto')));
    return undefined;
  }
  const hasKey = value.chave !== undefined;
  const hasAccount = ACCOUNT_FIELDS.some((field) => value[field] !== undefined);
  if (hasKey && hasAccount) {
    v.push(violation('destinatario', 'O objeto destinatario deve ter o campo chave ou os campos ispb, agencia e conta, não ambos.'));
    return undefined;
  }
  if (hasKey) {
    // Only the shape here: whether the DICT knows the key is the DICT's to say (422).
    if (isText(value.chave, 77)) return { chave: value.chave };
    v.push(violation('destinatario.chave', schema('destinatario.chave'), value.chave));
    return undefined;
  }
  if (!hasAccount) {
    v.push(violation('destinatario', 'O objeto destinatario deve ter o campo chave ou os campos ispb, agencia e conta.'));
    return undefined;
  }
  const { ispb, agencia, conta, tipoConta } = value;
  const before = v.length;
  if (typeof ispb !== 'string' || !ISPB_DIGITS.test(ispb)) v.push(violation('destinatario.ispb', schema('destinatario.ispb'), ispb));
  if (typeof agencia !== 'string' || !AGENCIA.test(agencia)) v.push(violation('destinatario.agencia', schema('destinatario.agencia'), agencia));
  if (typeof conta !== 'string' || !CONTA.test(conta)) v.push(violation('destinatario.conta', schema('destinatario.conta'), conta));
  if (tipoConta !== undefined && !TIPOS_CONTA.includes(tipoConta as TipoConta))
    v.push(violation('destinatario.tipoConta', schema('destinatario.tipoConta'), tipoConta));
  if (v.length > before) return undefined;
  return { ispb: ispb as string, agencia: agencia as string, conta: conta as string, ...(tipoConta !== undefined && { tipoConta: tipoConta as TipoConta }) };
}

/**
 * PUT /pagamentos/{idEnvio} (PagamentoSolicitado; violations of PagamentoOperacaoInvalida, 400), properties named as
 * in the body (`valor`, `destinatario.conta`, `favorecido.cpf`). Unknown fields are ignored, as elsewhere.
 */
export function validateNewPayout(body: unknown): Result<NewPayout> {
  const v: Violacao[] = [];
  if (!isObject(body)) return refused(Problems.payoutInvalid([violation('pagamento', schema('pagamento', 'objeto'))]));
  const amount = valorToCentavos(body.valor);
  if (amount === undefined) v.push(violation('valor', schema('valor'), body.valor));
  else if (amount === 0) v.push(violation('valor', 'O campo valor é zero.', body.valor));
  const destinatario = payoutDestinationOf(body.destinatario, v);
  const favorecido = personOf(body.favorecido, 'favorecido', 200, v);
  if (body.infoPagador !== undefined && !isText(body.infoPagador, 140, 0)) v.push(violation('infoPagador', schema('infoPagador')));
  if (v.length > 0 || amount === undefined || !destinatario || !favorecido) return refused(Problems.payoutInvalid(v));
  return ok({ amount, destinatario, favorecido, ...(body.infoPagador !== undefined && { infoPagador: body.infoPagador as string }) });
}

export interface PayoutStatusChange {
  status: PagamentoStatus;
  motivo?: string;
}

/** POST /sim/pagamentos/{idEnvio}/status: {status: EM_PROCESSAMENTO | REALIZADO | NAO_REALIZADO | CANCELADO, motivo? (≤ 140)}. */
export function validatePayoutStatusChange(body: unknown): Result<PayoutStatusChange> {
  const v: Violacao[] = [];
  const status = isObject(body) ? body.status : undefined;
  const motivo = isObject(body) ? body.motivo : undefined;
  if (!PAGAMENTO_STATUSES.includes(status as PagamentoStatus))
    v.push(violation('status', `O campo status deve ser um de ${PAGAMENTO_STATUSES.join(', ')}.`, status));
  if (motivo !== undefined && !isText(motivo, 140)) v.push(violation('motivo', schema('motivo')));
  if (v.length > 0) return refused(Problems.payoutInvalid(v));
  return ok({ status: status as PagamentoStatus, ...(motivo !== undefined && { motivo: motivo as string }) });
}

/** PUT /webhookrec and PUT /webhookcobr (WebhookRecSolicitado, WebhookCobRSolicitado): an absolute http(s) URL. */
export function validateWebhookUrl(body: unknown, invalid: (violacoes: Violacao[]) => Problema = Problems.webhookRecInvalid): Result<string> {
  const url = isObject(body) ? body.webhookUrl : undefined;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || (url as string).length > 2048) {
    return refused(invalid([violation('webhookUrl', 'O campo webhookUrl não respeita o schema.', url)]));
  }
  return ok(url as string);
}

/** POST /sim/solicrec/{id}/answer: {decision: ACCEPT | REJECT}. */
export function validateDecision(body: unknown): Result<'ACCEPT' | 'REJECT'> {
  const decision = isObject(body) ? body.decision : undefined;
  if (decision === 'ACCEPT' || decision === 'REJECT') return ok(decision);
  return refused(Problems.solicRecInvalid([violation('decision', 'O campo decision deve ser ACCEPT ou REJECT.', decision)]));
}
