// A solicitation's life (SolicRecStatus). The alert travels by itself: CRIADA → ENVIADA → RECEBIDA on a fixed
// schedule counted from its creation, except towards an institution that does not exist (ISPB starting with
// 9999), where it stays ENVIADA. The payer answers a RECEBIDA one (ACEITA | REJEITADA); past
// dataExpiracaoSolicitacao unanswered it is EXPIRADA; the receiving user may cancel it while still open.
// Everything is computed from the record's own timestamps, so a restart of the simulator loses nothing.
import type { Atualizacao, Destinatario, SolicRecStatus } from '@pixauto/bank';
import { ok, Problems, refused, Result, violation } from './problems';
import { SolicRecord } from './records';
import { NewSolicitation } from './validation';

export interface AlertSchedule {
  /** After creation, when the alert leaves for the payer's institution. */
  sentAfterMs: number;
  /** After creation, when the payer's institution has it. */
  receivedAfterMs: number;
}

const OPEN: readonly SolicRecStatus[] = ['CRIADA', 'ENVIADA', 'RECEBIDA'];
export const isOpen = (s: Pick<SolicRecord, 'status'>): boolean => OPEN.includes(s.status);

/** An ISPB starting with 9999 names no institution: the alert never arrives. */
export const reachesPayer = (destinatario: Pick<Destinatario, 'ispbParticipante'>): boolean => !destinatario.ispbParticipante.startsWith('9999');

export function newSolicitation(idSolicRec: string, input: NewSolicitation, at: Date): SolicRecord {
  return {
    idSolicRec,
    idRec: input.idRec,
    status: 'CRIADA',
    createdAt: at.toISOString(),
    expiresAt: input.expiresAt.toISOString(),
    destinatario: input.destinatario,
    atualizacao: [{ status: 'CRIADA', data: at.toISOString() }],
  };
}

/** The next automatic step of an open solicitation, and when it falls due; undefined when none is coming. */
export function nextStep(s: SolicRecord, schedule: AlertSchedule): { status: SolicRecStatus; at: number } | undefined {
  if (!isOpen(s)) return undefined;
  const created = Date.parse(s.createdAt);
  const expiry = { status: 'EXPIRADA' as const, at: Date.parse(s.expiresAt) };
  const travel =
    s.status === 'CRIADA'
      ? { status: 'ENVIADA' as const, at: created + schedule.sentAfterMs }
      : s.status === 'ENVIADA' && reachesPayer(s.destinatario)
        ? { status: 'RECEBIDA' as const, at: created + schedule.receivedAfterMs }
        : undefined;
  return travel && travel.at < expiry.at ? travel : expiry;
}

/** Every automatic step due by `now`, each stamped with the time it fell due (not the time it was noticed). */
export function advance(s: SolicRecord, now: Date, schedule: AlertSchedule): SolicRecord {
  let current = s;
  for (let next = nextStep(current, schedule); next && next.at <= now.getTime(); next = nextStep(current, schedule)) {
    current = moveTo(current, next.status, new Date(next.at));
  }
  return current;
}

const moveTo = (s: SolicRecord, status: SolicRecStatus, at: Date): SolicRecord => ({
  ...s,
  status,
  atualizacao: [...s.atualizacao, { status, data: at.toISOString() } satisfies Atualizacao<SolicRecStatus>],
});

/** The payer's answer; only a RECEBIDA solicitation can be answered (the alert must have reached the payer). */
export function answer(s: SolicRecord, decision: 'ACCEPT' | 'REJECT', at: Date): Result<SolicRecord> {
  if (s.status !== 'RECEBIDA') {
    return refused(
      Problems.solicRecInvalid([
        violation(
          'solicrec.status',
          `A solicitação encontra-se com o status ${s.status}; somente uma solicitação RECEBIDA pode ser respondida pelo usuário pagador.`,
          s.status,
        ),
      ]),
    );
  }
  return ok(moveTo(s, decision === 'ACCEPT' ? 'ACEITA' : 'REJEITADA', at));
}

/** PATCH /solicrec/{id} status CANCELADA: "Não é possível cancelar uma solicitação ... com o status diferente de CRIADA, ENVIADA ou RECEBIDA." */
export function cancel(s: SolicRecord, at: Date): Result<SolicRecord> {
  if (!isOpen(s)) {
    return refused(
      Problems.solicRecInvalid([
        violation('solicrec.status', 'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.', s.status),
      ]),
    );
  }
  return ok(moveTo(s, 'CANCELADA', at));
}
