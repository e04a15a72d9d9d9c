// Records → the BCB wire (RecGerada, RecCompleta, SolicRecCompleta, CobCompleta, CobRCompleta, RecNotification ...).
import {
  centavosToValor,
  CobCompleta,
  CobRCompleta,
  CobRNotification,
  LocCob,
  LocRec,
  PixRecebido,
  RecCompleta,
  RecGerada,
  RecNotificacao,
  RecPayload,
  SolicRecCompleta,
  ValorRec,
} from '@pixauto/bank';
import { brCode } from './br-code';
import { isPayable } from './charge';
import { hasEnded } from './recurrence';
import { CobRecord, CobRRecord, LocationRecord, Receiver, RecRecord, SolicRecord } from './records';

export const locRecView = (loc: LocationRecord): LocRec => ({
  id: loc.id,
  location: loc.location,
  criacao: loc.createdAt,
  ...(loc.idRec !== null && { idRec: loc.idRec }),
});

const locCobView = (loc: LocationRecord): LocCob => ({ id: loc.id, location: loc.location, tipoCob: 'cob', criacao: loc.createdAt });

const valorView = (rec: RecRecord): ValorRec | undefined => {
  const valor: ValorRec = {
    ...(rec.valor.rec !== undefined && { valorRec: centavosToValor(rec.valor.rec) }),
    ...(rec.valor.minimoRecebedor !== undefined && { valorMinimoRecebedor: centavosToValor(rec.valor.minimoRecebedor) }),
  };
  return Object.keys(valor).length > 0 ? valor : undefined;
};

const ativacaoView = (rec: RecRecord) => ({
  tipoJornada: rec.tipoJornada,
  ...(rec.activationTxid !== null && { dadosJornada: { txid: rec.activationTxid } }),
});

export function recGeradaView(rec: RecRecord, loc: LocationRecord | undefined, receiver: Receiver): RecGerada {
  const valor = valorView(rec);
  return {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...(valor && { valor }),
    politicaRetentativa: rec.politicaRetentativa,
    recebedor: { cnpj: receiver.cnpj, nome: receiver.nome, ...(rec.convenio !== undefined && { convenio: rec.convenio }) },
    status: rec.status,
    ...(loc && { loc: locRecView(loc) }),
    atualizacao: rec.atualizacao,
    ...(rec.encerramento && { encerramento: rec.encerramento }),
    ativacao: ativacaoView(rec),
  };
}

export interface RecContext {
  loc?: LocationRecord;
  solicitations: SolicRecord[];
  /** The immediate charge asked for with ?txid= (journey 3), and its location. */
  qrCharge?: { cob: CobRecord; loc: LocationRecord };
  now: Date;
}

/**
 * GET /rec/{idRec}. dadosQR, as the spec's table says: without txid the recurrence's own QR (journey 2); with
 * the txid of its immediate charge the composite QR (journey 3). Only while a payer can still use it: the
 * recurrence is not ended, it has a location, and (journey 3) the charge can still be paid.
 */
export function recCompletaView(rec: RecRecord, context: RecContext, receiver: Receiver): RecCompleta {
  const { loc, qrCharge, now } = context;
  let dadosQR: RecCompleta['dadosQR'];
  if (loc && !hasEnded(rec)) {
    const name = { merchantName: receiver.nome, merchantCity: receiver.city, recurrenceLocation: loc.location };
    if (!qrCharge) dadosQR = { jornada: 'JORNADA_2', pixCopiaECola: brCode(name) };
    else if (isPayable(qrCharge.cob, now)) dadosQR = { jornada: 'JORNADA_3', pixCopiaECola: brCode({ ...name, chargeLocation: qrCharge.loc.location }) };
  }
  return {
    ...recGeradaView(rec, loc, receiver),
    ...(rec.pagador && { pagador: rec.pagador }),
    ...(context.solicitations.length > 0 && { solicitacao: context.solicitations.map((s) => solicRecView(s)) }),
    ...(dadosQR && { dadosQR }),
  };
}

export const recPayloadView = (rec: RecRecord, receiver: Receiver): RecPayload => {
  const valor = valorView(rec);
  return {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...(valor && { valor }),
    politicaRetentativa: rec.politicaRetentativa,
    recebedor: { cnpj: receiver.cnpj, nome: receiver.nome, ispbParticipante: receiver.ispb },
    atualizacao: rec.atualizacao,
  };
};

export function solicRecView(s: SolicRecord, rec?: RecRecord, receiver?: Receiver): SolicRecCompleta {
  return {
    idSolicRec: s.idSolicRec,
    idRec: s.idRec,
    calendario: { dataExpiracaoSolicitacao: s.expiresAt },
    destinatario: s.destinatario,
    status: s.status,
    atualizacao: s.atualizacao,
    ...(rec && receiver && { recPayload: recPayloadView(rec, receiver) }),
  };
}

export function cobView(cob: CobRecord, loc: LocationRecord, receiver: Receiver): CobCompleta {
  return {
    calendario: { criacao: cob.createdAt, expiracao: cob.expiracao },
    txid: cob.txid,
    revisao: cob.revisao,
    loc: locCobView(loc),
    location: loc.location,
    status: cob.status,
    ...(cob.devedor && { devedor: cob.devedor }),
    valor: { original: centavosToValor(cob.amount), ...(cob.modalidadeAlteracao !== undefined && { modalidadeAlteracao: cob.modalidadeAlteracao }) },
    chave: cob.chave,
    ...(cob.solicitacaoPagador !== undefined && { solicitacaoPagador: cob.solicitacaoPagador }),
    ...(cob.infoAdicionais && { infoAdicionais: cob.infoAdicionais }),
    pixCopiaECola: brCode({ merchantName: receiver.nome, merchantCity: receiver.city, chargeLocation: loc.location }),
    ...(cob.payment && { pix: [pixView(cob, cob.payment)] }),
  };
}

/** Pix: the payment of a paid charge, as GET /cob/{txid} (pix[]), GET /pix/{e2eid} and the {webhookUrl}/pix callback show it. */
export const pixView = (cob: CobRecord, payment: NonNullable<CobRecord['payment']>): PixRecebido => ({
  endToEndId: payment.endToEndId,
  txid: cob.txid,
  valor: centavosToValor(cob.amount),
  chave: cob.chave,
  horario: payment.horario,
});

/** RecNotification: one recurrence in the {webhookUrl}/rec callback. */
export const recNotificationView = (rec: RecRecord): RecNotificacao => ({
  idRec: rec.idRec,
  status: rec.status,
  atualizacao: rec.atualizacao,
  ...(rec.encerramento && { encerramento: rec.encerramento }),
  ativacao: ativacaoView(rec),
});

/**
 * CobRCompleta: GET /cobr/{txid}, and also the answer of PUT and PATCH (CobRGerada plus politicaRetentativa,
 * atualizacao and tentativas, as the spec's own examples of those answers show).
 */
export function cobRView(cobr: CobRRecord, receiver: Receiver): CobRCompleta {
  return {
    idRec: cobr.idRec,
    txid: cobr.txid,
    ...(cobr.infoAdicional !== undefined && { infoAdicional: cobr.infoAdicional }),
    calendario: { criacao: cobr.criacao, dataDeVencimento: cobr.dataDeVencimento },
    valor: { original: centavosToValor(cobr.amount) },
    ajusteDiaUtil: cobr.ajusteDiaUtil,
    recebedor: { cnpj: receiver.cnpj, nome: receiver.nome, ...cobr.recebedor },
    status: cobr.status,
    politicaRetentativa: cobr.politicaRetentativa,
    ...(cobr.devedor && { devedor: cobr.devedor }),
    ...(cobr.pix.length > 0 && { pix: cobr.pix }),
    atualizacao: cobr.atualizacao,
    ...(cobr.encerramento && { encerramento: cobr.encerramento }),
    tentativas: cobr.tentativas,
  };
}

/** CobRNotification: one recurring charge in the {webhookUrl}/cobr callback. */
export const cobRNotificationView = (cobr: CobRRecord): CobRNotification => ({
  idRec: cobr.idRec,
  txid: cobr.txid,
  status: cobr.status,
  atualizacao: cobr.atualizacao,
  ...(cobr.encerramento && { encerramento: cobr.encerramento }),
  tentativas: cobr.tentativas,
  ...(cobr.pix.length > 0 && { pix: cobr.pix }),
});
