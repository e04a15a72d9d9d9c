import { IsIn } from 'class-validator';
import { Messages, validation } from '@pixauto/errors';
import { centavosToReais, reaisToCentavos } from '@pixauto/pix';
import { Pagination, PeriodPage, PeriodPageParams, validatePeriodPage } from '../period-page';
import { OptionalField } from '../recurrences/recurrence.validators';
import { Validated } from '../validation';
import { PixChargeRecordData } from './pix-charge';

// Pix disputes (docs/api/disputes.md, docs/decisions/disputes.md): the payer's bank claims back a Pix the merchant
// received (Banco Central's MED). The bank blocks the disputed amount, the merchant may send a defence until the
// deadline, and the bank concludes: the money returned to the payer (whole or in part, a devolução of natureza
// MED_*) or the claim rejected and the money released. A dispute lives on its payment's stream, beside its refunds:
// what they take back together never exceeds what was paid.

/** Why the payer's bank claims the money back. */
export type DisputeReason = 'FRAUD' | 'OPERATIONAL_FLAW' | 'PIX_AUTOMATICO';
export const DISPUTE_REASONS: readonly DisputeReason[] = ['FRAUD', 'OPERATIONAL_FLAW', 'PIX_AUTOMATICO'];

/** OPEN: awaiting your defence. DEFENDED: your defence is with the bank. RETURNED: money went back to the payer. REJECTED: the claim was rejected, the money released. */
export type DisputeStatus = 'OPEN' | 'DEFENDED' | 'RETURNED' | 'REJECTED';
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['OPEN', 'DEFENDED', 'RETURNED', 'REJECTED'];

/** The natureza of the return a dispute causes, as Banco Central's API Pix names it. */
export type MedNatureza = 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

/** The natureza of the return each reason causes. */
export const NATUREZA_OF_REASON: Record<DisputeReason, MedNatureza> = {
  FRAUD: 'MED_FRAUDE',
  OPERATIONAL_FLAW: 'MED_OPERACIONAL',
  PIX_AUTOMATICO: 'MED_PIX_AUTOMATICO',
};

/** One evidence file of a defence, as recorded (its bytes are kept apart, readable only by the account). */
export interface DisputeEvidenceData {
  id: number;
  file_name: string;
  content_type: EvidenceContentType;
  size_bytes: number;
}

/** The type of an evidence file: application/pdf, image/png or image/jpeg. */
export type EvidenceContentType = 'application/pdf' | 'image/png' | 'image/jpeg';
export const EVIDENCE_CONTENT_TYPES: readonly EvidenceContentType[] = ['application/pdf', 'image/png', 'image/jpeg'];
/** Each evidence file at most 200 KiB, at most 3 files: a whole defence, in base64, fits the API's 1 MiB request limit. */
export const MAX_EVIDENCE_BYTES = 200 * 1024;
export const MAX_EVIDENCE_FILES = 3;
export const MAX_DEFENCE_TEXT = 5000;

/** The return a dispute caused: a devolução of the payment, made by the bank. */
export interface DisputeReturnData {
  amount_centavos: number;
  /** The return's end-to-end id (the devolução's rtrId). */
  e2e_id: string;
  natureza: MedNatureza;
  returned_at: string;
}

/** A dispute as every dispute event carries it, whole, after the change (money in centavos). */
export interface DisputeRecordData {
  id: number;
  /** The bank's id of the infraction report. */
  infraction_id: string;
  reason: DisputeReason;
  status: DisputeStatus;
  /** What the payer's bank claims. */
  claimed_centavos: number;
  /** What is blocked while the dispute is analysed: the claim, at most what was paid less what was already given back. */
  blocked_centavos: number;
  defence_deadline: string;
  defence: { text: string; evidence: DisputeEvidenceData[]; submitted_at: string } | null;
  return: DisputeReturnData | null;
  opened_at: string;
  closed_at: string | null;
}

/** `pix_charge.dispute_*`: the charge and the dispute. */
export interface PixChargeDisputeData {
  charge: PixChargeRecordData;
  dispute: DisputeRecordData;
}

/** An evidence file of your defence. */
export interface DisputeEvidence {
  /** The file's id: `GET /v2/disputes/{id}/evidence/{evidence_id}` reads it back. */
  id: number;
  /** The name you gave it. */
  file_name: string;
  /** application/pdf, image/png or image/jpeg. */
  content_type: EvidenceContentType;
  /** Its size in bytes. */
  size_bytes: number;
}

/** A Pix you received that the payer's bank disputes (Banco Central's special return mechanism, MED). */
export interface DisputeResponse {
  /** Unique identifier of the dispute (an integer). */
  id: number;
  /** OPEN until you send a defence (DEFENDED); the bank concludes it RETURNED (money went back to the payer) or REJECTED (the money is released). */
  status: DisputeStatus;
  /** Why the payer's bank claims the money: FRAUD, OPERATIONAL_FLAW (a mistake in the payment) or PIX_AUTOMATICO (a Pix Automático debit the payer disputes). */
  reason: DisputeReason;
  /** The disputed payment. */
  transaction: {
    /** The Pix charge's `id`. */
    id: number;
    /** The Pix charge's `transaction_id`. */
    transaction_id: string;
    /** What the payer paid, in reais (BRL). */
    amount: number;
  };
  /** What the payer's bank claims, in reais (BRL). */
  amount: number;
  /** What is held from your balance while the dispute is analysed, in reais (BRL): the claim, at most what was paid less what you had already refunded. */
  blocked_amount: number;
  /** Until when a defence is accepted, ISO 8601 in UTC. */
  defence_deadline: string;
  /** Your defence, once sent; null until then. */
  defence: {
    /** What you wrote. */
    text: string;
    /** The files you sent, readable only by your account at `GET /v2/disputes/{id}/evidence/{evidence_id}`. */
    evidence: DisputeEvidence[];
    /** When you sent it, ISO 8601 in UTC. */
    submitted_at: string;
  } | null;
  /** The money returned to the payer when the dispute is RETURNED; null otherwise. */
  return: {
    /** Amount returned, in reais (BRL): all or part of the blocked amount. */
    amount: number;
    /** The return's end-to-end id (the devolução's rtrId). */
    e2e_id: string;
    /** MED_FRAUDE, MED_OPERACIONAL or MED_PIX_AUTOMATICO, as Banco Central's API Pix names the return. */
    natureza: MedNatureza;
    /** When the money went back, ISO 8601 in UTC. */
    returned_at: string;
  } | null;
  /** When the bank reported the dispute, ISO 8601 in UTC. */
  opened_at: string;
  /** When the bank concluded it, ISO 8601 in UTC; null while OPEN or DEFENDED. */
  closed_at: string | null;
}

export function disputeResponse(dispute: DisputeRecordData, charge: Pick<PixChargeRecordData, 'id' | 'transaction_id' | 'amount_centavos'>): DisputeResponse {
  return {
    id: dispute.id,
    status: dispute.status,
    reason: dispute.reason,
    transaction: { id: charge.id, transaction_id: charge.transaction_id, amount: centavosToReais(charge.amount_centavos) },
    amount: centavosToReais(dispute.claimed_centavos),
    blocked_amount: centavosToReais(dispute.blocked_centavos),
    defence_deadline: dispute.defence_deadline,
    defence: dispute.defence,
    return: dispute.return && {
      amount: centavosToReais(dispute.return.amount_centavos),
      e2e_id: dispute.return.e2e_id,
      natureza: dispute.return.natureza,
      returned_at: dispute.return.returned_at,
    },
    opened_at: dispute.opened_at,
    closed_at: dispute.closed_at,
  };
}

const D = Messages.disputes;

// GET /v2/disputes: the period list (as the recurrences'), by opened_at, with a status filter.

class ListDisputesParams extends PeriodPageParams {
  @IsIn(DISPUTE_STATUSES, { message: D.statusInvalid })
  @OptionalField()
  status?: string;
}

export interface ListDisputesQuery extends PeriodPage {
  status: DisputeStatus | undefined;
}

export function validateListDisputes(query: unknown): Validated<ListDisputesQuery> {
  const checked = validatePeriodPage(ListDisputesParams, query);
  if (!checked.ok) return checked;
  return { ok: true, value: { ...checked.value.period, status: checked.value.params.status as DisputeStatus | undefined } };
}

/** One page of the disputes opened in the requested period, newest first. */
export interface DisputeListResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's disputes, newest first by `opened_at`, whatever their status. */
  disputes: DisputeResponse[];
}

// POST /v2/disputes/:id/defence: a text and up to three files, each sent as base64 in JSON.

/** An evidence file as sent, checked: its bytes decoded. */
export interface EvidenceFile {
  file_name: string;
  content_type: EvidenceContentType;
  content: Buffer;
}

export interface DefenceRequest {
  text: string;
  evidence: EvidenceFile[];
}

/** The first bytes each accepted type starts with: the declared type must be what the file is. */
const MAGIC: Record<EvidenceContentType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DEFENCE_FIELDS = ['text', 'evidence'];
const EVIDENCE_FIELDS = ['file_name', 'content_type', 'content_base64'];

/** Unknown fields, then the text, then each file: its name, its type (declared and by its first bytes) and its size. */
export function validateDefence(body: unknown): Validated<DefenceRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const sent = body as Record<string, unknown>;
  const unknown = Object.keys(sent).filter((key) => !DEFENCE_FIELDS.includes(key));
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const problems: string[] = [];
  const text = sent.text;
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_DEFENCE_TEXT) problems.push(D.textInvalid);
  const files = sent.evidence ?? [];
  const evidence: EvidenceFile[] = [];
  if (!Array.isArray(files) || files.length > MAX_EVIDENCE_FILES) problems.push(D.evidenceInvalid);
  else
    files.forEach((file: unknown, i) => {
      const checked = evidenceOf(file, i);
      if (typeof checked === 'string') problems.push(checked);
      else evidence.push(checked);
    });
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  return { ok: true, value: { text: text as string, evidence } };
}

function evidenceOf(file: unknown, i: number): EvidenceFile | string {
  if (typeof file !== 'object' || file === null || Array.isArray(file) || Object.keys(file).some((key) => !EVIDENCE_FIELDS.includes(key)))
    return D.evidenceFileInvalid(i);
  const { file_name, content_type, content_base64 } = file as Record<string, unknown>;
  if (typeof file_name !== 'string' || file_name.trim() === '' || file_name.length > 200) return D.fileNameInvalid(i);
  if (typeof content_type !== 'string' || !(EVIDENCE_CONTENT_TYPES as readonly string[]).includes(content_type)) return D.contentTypeInvalid(i);
  if (typeof content_base64 !== 'string' || content_base64 === '' || !BASE64.test(content_base64)) return D.contentInvalid(i);
  // Base64 is 4 characters for 3 bytes: a string too long is refused before it is decoded.
  if (content_base64.length > Math.ceil(MAX_EVIDENCE_BYTES / 3) * 4) return D.fileTooLarge(i);
  const content = Buffer.from(content_base64, 'base64');
  if (content.length > MAX_EVIDENCE_BYTES) return D.fileTooLarge(i);
  const magic = MAGIC[content_type as EvidenceContentType];
  if (content.length < magic.length || magic.some((byte, at) => content[at] !== byte)) return D.contentMismatch(i, content_type);
  return { file_name, content_type: content_type as EvidenceContentType, content };
}

// POST /v2/sandbox/transactions/:id/dispute: a dispute the sandbox's payer's bank opens, with its outcome and timing.

export type SandboxDisputeOutcome = 'RETURNED' | 'PARTIALLY_RETURNED' | 'REJECTED';
export const SANDBOX_DISPUTE_OUTCOMES: readonly SandboxDisputeOutcome[] = ['RETURNED', 'PARTIALLY_RETURNED', 'REJECTED'];

export interface SandboxDisputeRequest {
  reason: DisputeReason;
  outcome: SandboxDisputeOutcome;
  /** The claim in centavos; absent: the whole payment. */
  amount_centavos: number | undefined;
  /** Days (on the test clock) the merchant has to defend. */
  defence_days: number;
  /** Days (on the test clock) after opening the bank concludes. */
  conclude_after_days: number;
}

const SANDBOX_FIELDS = ['reason', 'outcome', 'amount', 'defence_days', 'conclude_after_days'];
const isWholeDays = (value: unknown, max: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

export function validateSandboxDispute(body: unknown): Validated<SandboxDisputeRequest> {
  const sent = body ?? {};
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const fields = sent as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !SANDBOX_FIELDS.includes(key));
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const problems: string[] = [];
  const reason = fields.reason ?? 'FRAUD';
  if (!(DISPUTE_REASONS as readonly unknown[]).includes(reason)) problems.push(D.reasonInvalid);
  const outcome = fields.outcome ?? 'RETURNED';
  if (!(SANDBOX_DISPUTE_OUTCOMES as readonly unknown[]).includes(outcome)) problems.push(D.outcomeInvalid);
  const amountCentavos = fields.amount === undefined ? undefined : reaisToCentavos(fields.amount);
  if (fields.amount !== undefined && !(amountCentavos !== undefined && amountCentavos > 0)) problems.push(D.amountInvalid);
  const defenceDays = fields.defence_days ?? 7;
  if (!isWholeDays(defenceDays, 30)) problems.push(D.defenceDaysInvalid);
  const concludeDays = fields.conclude_after_days ?? (isWholeDays(defenceDays, 30) ? defenceDays + 1 : 8);
  if (!isWholeDays(concludeDays, 60) || (isWholeDays(defenceDays, 30) && concludeDays <= defenceDays)) problems.push(D.concludeDaysInvalid);
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  return {
    ok: true,
    value: {
      reason: reason as DisputeReason,
      outcome: outcome as SandboxDisputeOutcome,
      amount_centavos: amountCentavos,
      defence_days: defenceDays as number,
      conclude_after_days: concludeDays as number,
    },
  };
}
