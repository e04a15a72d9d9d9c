import { IsIn } from 'class-validator';
import { Messages, validation } from '@pixauto/errors';
import {
  AbatementModality,
  addDays,
  AmountDue,
  amountDueOn,
  centavosToReais,
  compareDates,
  DueDateDiscount,
  DueDateRule,
  DueDateTerms,
  FineModality,
  FIXED_DATE_DISCOUNT_MODALITIES,
  FixedDateDiscountModality,
  EarlyPaymentDiscountModality,
  InterestModality,
  lastPayableDay,
  reaisToCentavos,
} from '@pixauto/pix';
import { oneIdentifier } from '../one-identifier';
import { recordIdOf } from '../record-id';
import { Pagination, PeriodPage, PeriodPageParams, validatePeriodPage } from '../period-page';
import { FieldTree, isJsonObject, unknownFields } from '../recurrences/fields';
import { OptionalField } from '../recurrences/recurrence.validators';
import { validateBody, Validated } from '../validation';
import { ChangeDueDateChargeRequest, CreateDueDateChargeRequest, DueDateChargePayerRequest, DueDateDiscountRequest } from './due-date-charge.dto';

// Due-date Pix charges (BCB cobv; docs/decisions/due-date-charges.md): POST /v2/cobv creates one (PENDING, payable by
// its dynamic Pix code until its last payable day), the merchant changes or cancels it while PENDING, the payer pays
// it (PAID, with that day's amount) or it passes its last payable day (EXPIRED).

/** PENDING: payable. PAID: the payer paid it. EXPIRED: unpaid by its last payable day. CANCELLED: by you, while PENDING. */
export type DueDateChargeStatus = 'PENDING' | 'PAID' | 'EXPIRED' | 'CANCELLED';
export const DUE_DATE_CHARGE_STATUSES: readonly DueDateChargeStatus[] = ['PENDING', 'PAID', 'EXPIRED', 'CANCELLED'];

/** The payer of a due-date charge: BCB requires the document and the name; the rest is optional. */
export interface DueDateChargePayer {
  /** The payer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation. */
  document_number: string;
  /** The payer's name. */
  name: string;
  /** The payer's e-mail; null: none. */
  email: string | null;
  /** The payer's street address; null: none. */
  street: string | null;
  /** The payer's city; null: none. */
  city: string | null;
  /** The payer's state (two letters); null: none. */
  state: string | null;
  /** The payer's CEP (8 digits); null: none. */
  postal_code: string | null;
}

/** A fine, interest or abatement rule as the API shows it. */
export interface DueDateRuleResponse {
  /** How `value` counts (see the request's field of the same name). */
  modality: string;
  /** Reais, or a percentage, as `modality` says. */
  value: number;
}

/** A discount for paying on or before a date. */
export interface FixedDateDiscountResponse {
  /** The last day this discount applies, YYYY-MM-DD. */
  date: string;
  /** Reais, or a percentage, as the discount's `modality` says. */
  value: number;
}

/** The discount for paying early. */
export interface DueDateDiscountResponse {
  /** How the discount counts (see the request's field of the same name). */
  modality: string;
  /** With a per-day modality: reais or a percentage for each day paid ahead; absent otherwise. */
  value?: number;
  /** With an _UNTIL_DATE modality: the dates and their values; absent otherwise. */
  fixed_dates?: FixedDateDiscountResponse[];
}

/** What the payer owes on a day and why, in reais: final = original - abatement - discount + fine + interest. */
export interface AmountDueResponse {
  /** The day this amount is for, YYYY-MM-DD (Brasília). */
  date: string;
  /** The charge's amount. */
  original: number;
  /** The abatement taken off. */
  abatement: number;
  /** The discount for paying early (0 after the due date). */
  discount: number;
  /** The fine for paying late (0 up to the due date). */
  fine: number;
  /** The interest for paying late (0 up to the due date). */
  interest: number;
  /** What the payer pays. */
  final: number;
}

// POST /v2/cobv (201), GET /v2/cobv and PATCH /v2/cobv/{id} (200): the same object.
/**
 * A due-date Pix charge: an amount due on a date, with a fine and interest after it, a discount before it and an
 * abatement, paid by a dynamic QR code whose amount is that of the day the payer pays.
 */
export interface DueDateChargeResponse {
  /** Unique identifier of the charge (an integer), assigned at creation. */
  id: number;
  /** Your identifier of the charge, as sent at creation. */
  transaction_id: string;
  /** PENDING until the payer pays (PAID), its last payable day passes (EXPIRED) or you cancel it (CANCELLED). */
  status: DueDateChargeStatus;
  /** The bank that receives the payment: your account's cash-in bank when the charge was created. */
  provider: string;
  /** The original amount, in reais. */
  amount: number;
  /** The due date, YYYY-MM-DD, as sent. */
  due_date: string;
  /** Calendar days after the due date the charge may still be paid. */
  days_valid_after_due: number;
  /** The last day the charge can be paid, YYYY-MM-DD (the due date moved to a business day, plus the days of validity, moved to a business day). */
  last_payable_day: string;
  /** Who owes it. */
  payer: DueDateChargePayer;
  /** The fine after the due date; null: none. */
  fine: DueDateRuleResponse | null;
  /** The interest after the due date; null: none. */
  interest: DueDateRuleResponse | null;
  /** The discount for paying early; null: none. */
  discount: DueDateDiscountResponse | null;
  /** The abatement; null: none. */
  abatement: DueDateRuleResponse | null;
  /** The message shown to the payer; null: none. */
  description: string | null;
  /** The URL that receives the charge's events; null: no notifications. */
  webhook: string | null;
  /** The Pix copy-and-paste code (a dynamic BR Code pointing at the charge) while PENDING; null otherwise. */
  pix_copy_paste: string | null;
  /** The same code as a QR code image, a `data:image/png;base64,...` URI; present only while `pix_copy_paste` is. */
  qrcode?: string;
  /** What the payer would pay today (Brasília; the sandbox's test clock), and why, while PENDING and payable; null otherwise. */
  amount_due: AmountDueResponse | null;
  /** What the payer paid and why, once PAID; null before. */
  amount_paid: AmountDueResponse | null;
  /** How many times the charge was changed. */
  revision: number;
  /** When the charge was created, ISO 8601 in UTC. */
  created_at: string;
  /** When the charge was last changed, cancelled, paid or expired, ISO 8601 in UTC. */
  updated_at: string;
  /** When the payer paid, ISO 8601 in UTC; null until PAID. */
  paid_at: string | null;
}

/** The charge as every event carries it, whole, after the change (money and rule values in hundredths). */
export interface DueDateChargeRecordData extends DueDateTerms {
  id: number;
  transaction_id: string;
  status: DueDateChargeStatus;
  provider: string;
  payer: DueDateChargePayer;
  description: string | null;
  webhook: string | null;
  pix_copy_paste: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** What was paid, and why, once PAID (centavos). */
  paid: AmountDue | null;
  /** Our due-date charge at the bank (BCB `/cobv`). */
  bank: { txid: string; location: string };
  e2e_id: string | null;
}

/** Every `due_date_charge.*` event: the charge after the change. */
export interface DueDateChargeChangedData {
  charge: DueDateChargeRecordData;
}

export const DueDateChargeEventTypes = {
  created: 'due_date_charge.created',
  changed: 'due_date_charge.changed',
  cancelled: 'due_date_charge.cancelled',
  paid: 'due_date_charge.paid',
  expired: 'due_date_charge.expired',
} as const;

const hundredthsToNumber = (h: number): number => centavosToReais(h);

const amountDueResponse = (a: AmountDue): AmountDueResponse => ({
  date: a.day,
  original: centavosToReais(a.original),
  abatement: centavosToReais(a.abatement),
  discount: centavosToReais(a.discount),
  fine: centavosToReais(a.fine),
  interest: centavosToReais(a.interest),
  final: centavosToReais(a.final),
});

const ruleResponse = (r: DueDateRule<string> | null): DueDateRuleResponse | null => r && { modality: r.modality, value: hundredthsToNumber(r.value) };

/** The API's object (without the QR image), with what is owed on `today` (YYYY-MM-DD, Brasília). */
export function dueDateChargeResponse(charge: DueDateChargeRecordData, today: string): DueDateChargeResponse {
  const due = charge.status === 'PENDING' ? amountDueOn(charge, today) : undefined;
  const d = charge.discount;
  return {
    id: charge.id,
    transaction_id: charge.transaction_id,
    status: charge.status,
    provider: charge.provider,
    amount: centavosToReais(charge.amount_centavos),
    due_date: charge.due_date,
    days_valid_after_due: charge.days_valid_after_due,
    last_payable_day: lastPayableDay(charge),
    payer: charge.payer,
    fine: ruleResponse(charge.fine),
    interest: ruleResponse(charge.interest),
    discount:
      d &&
      ('fixed_dates' in d
        ? { modality: d.modality, fixed_dates: d.fixed_dates.map((f) => ({ date: f.date, value: hundredthsToNumber(f.value) })) }
        : { modality: d.modality, value: hundredthsToNumber(d.value) }),
    abatement: ruleResponse(charge.abatement),
    description: charge.description,
    webhook: charge.webhook,
    pix_copy_paste: charge.pix_copy_paste,
    amount_due: due ? amountDueResponse(due) : null,
    amount_paid: charge.paid ? amountDueResponse(charge.paid) : null,
    revision: charge.revision,
    created_at: charge.created_at,
    updated_at: charge.updated_at,
    paid_at: charge.paid_at,
  };
}

const D = Messages.dueDateCharges;

// ---- requests -------------------------------------------------------------------------------------------------

const RULE: FieldTree = { modality: true, value: true };
const PAYER: FieldTree = { document_number: true, name: true, email: true, street: true, city: true, state: true, postal_code: true };
const TERMS: FieldTree = {
  amount: true,
  due_date: true,
  days_valid_after_due: true,
  payer: PAYER,
  fine: RULE,
  interest: RULE,
  discount: { modality: true, value: true, fixed_dates: true },
  abatement: RULE,
  description: true,
};
const CREATE_FIELDS: FieldTree = { transaction_id: true, ...TERMS, webhook: true };
const CHANGE_FIELDS: FieldTree = { status: true, ...TERMS };

export const DEFAULT_DAYS_VALID_AFTER_DUE = 30;
/** How far ahead a due date may be: far enough for any bill, near enough for the calendar. */
const MAX_DAYS_AHEAD = 36_500;

/** A valid POST /v2/cobv, defaults applied, money and rule values in hundredths. */
export interface DueDateChargeRequest extends DueDateTerms {
  transaction_id: string;
  payer: DueDateChargePayer;
  webhook: string | null;
  description: string | null;
}

/** A valid PATCH /v2/cobv/{id}: a cancellation, or the fields to change (a rule set to null is removed). */
export type DueDateChargeChange = { type: 'cancel' } | { type: 'change'; changes: DueDateChargeChanges };

/** The fields a change sets; the others stay as they are. */
export type DueDateChargeChanges = Partial<DueDateTerms & { payer: DueDateChargePayer; description: string | null }>;

/** Unknown fields first (nested ones by their path), then every field rule, all problems in one message; `today` is Brasília's (the tenant's clock). */
export function validateCreateDueDateCharge(body: unknown, today: string): Validated<DueDateChargeRequest> {
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = unknownFields(body, CREATE_FIELDS);
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const checked = validateBody(CreateDueDateChargeRequest, body, Object.keys(CREATE_FIELDS));
  if (!checked.ok) return checked;
  const r = checked.value;
  const shape = discountShapeProblem(r.discount);
  if (shape) return { ok: false, refusal: validation(shape) };
  const request: DueDateChargeRequest = {
    transaction_id: r.transaction_id,
    amount_centavos: reaisToCentavos(r.amount) as number,
    due_date: r.due_date,
    days_valid_after_due: r.days_valid_after_due ?? DEFAULT_DAYS_VALID_AFTER_DUE,
    payer: payerOf(r.payer),
    fine: ruleOf<FineModality>(r.fine),
    interest: ruleOf<InterestModality>(r.interest),
    discount: discountOf(r.discount),
    abatement: ruleOf<AbatementModality>(r.abatement),
    webhook: r.webhook ?? null,
    description: r.description ?? null,
  };
  const problems = dueDateTermsProblems(request, today);
  return problems.length > 0 ? { ok: false, refusal: validation(...problems) } : { ok: true, value: request };
}

/** PATCH /v2/cobv/{id}: its fields' rules; how the changed terms hold together is judged on the charge (dueDateTermsProblems). */
export function validateChangeDueDateCharge(body: unknown): Validated<DueDateChargeChange> {
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = unknownFields(body, CHANGE_FIELDS);
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const checked = validateBody(ChangeDueDateChargeRequest, body, Object.keys(CHANGE_FIELDS));
  if (!checked.ok) return checked;
  const sent = Object.keys(body);
  if (sent.length === 0) return { ok: false, refusal: validation(D.nothingToChange) };
  if (sent.includes('status')) return sent.length === 1 ? { ok: true, value: { type: 'cancel' } } : { ok: false, refusal: validation(D.cancelAlone) };
  const r = checked.value;
  const shape = discountShapeProblem(r.discount);
  if (shape) return { ok: false, refusal: validation(shape) };
  const changes: DueDateChargeChanges = {};
  if (r.amount !== undefined) changes.amount_centavos = reaisToCentavos(r.amount) as number;
  if (r.due_date !== undefined) changes.due_date = r.due_date;
  if (r.days_valid_after_due !== undefined) changes.days_valid_after_due = r.days_valid_after_due;
  if (r.payer !== undefined) changes.payer = payerOf(r.payer);
  if (r.fine !== undefined) changes.fine = ruleOf<FineModality>(r.fine);
  if (r.interest !== undefined) changes.interest = ruleOf<InterestModality>(r.interest);
  if (r.discount !== undefined) changes.discount = discountOf(r.discount);
  if (r.abatement !== undefined) changes.abatement = ruleOf<AbatementModality>(r.abatement);
  if (r.description !== undefined) changes.description = r.description;
  return { ok: true, value: { type: 'change', changes } };
}

/**
 * How the terms hold together (BCB's refusals of a cobv): the due date not before today, the abatement and each
 * discount below the amount (or 100%), the discount's shape matching its modality, fixed dates not after the due date.
 */
export function dueDateTermsProblems(terms: DueDateTerms, today: string): string[] {
  const problems: string[] = [];
  if (compareDates(terms.due_date, today) < 0) problems.push(D.dueDateInThePast);
  if (compareDates(terms.due_date, addDays(today, MAX_DAYS_AHEAD)) > 0) problems.push(D.dueDateTooFar);
  // A fine and interest are bounded too, so that what is owed stays an amount Pix can carry.
  const atMostCharge = (field: string, percentage: boolean, value: number) => {
    if (percentage && value > 10_000) problems.push(D.percentageAbove100(field));
    if (!percentage && value > terms.amount_centavos) problems.push(D.amountAboveCharge(field));
  };
  if (terms.fine) atMostCharge('fine', terms.fine.modality === 'PERCENTAGE', terms.fine.value);
  if (terms.interest) atMostCharge('interest', terms.interest.modality.startsWith('PERCENT'), terms.interest.value);
  const belowCharge = (field: string, percentage: boolean, value: number) => {
    if (percentage && value >= 10_000) problems.push(D.percentageTooLarge(field));
    if (!percentage && value >= terms.amount_centavos) problems.push(D.amountNotBelowCharge(field));
  };
  if (terms.abatement) belowCharge('abatement', terms.abatement.modality === 'PERCENTAGE', terms.abatement.value);
  const d = terms.discount;
  if (d && 'fixed_dates' in d) {
    d.fixed_dates.forEach((f) => belowCharge('discount.fixed_dates[]', d.modality === 'PERCENTAGE_UNTIL_DATE', f.value));
    if (new Set(d.fixed_dates.map((f) => f.date)).size !== d.fixed_dates.length) problems.push(D.fixedDatesRepeated);
    if (d.fixed_dates.some((f) => compareDates(f.date, terms.due_date) > 0)) problems.push(D.fixedDateAfterDue);
  }
  return [...new Set(problems)];
}

/** A discount takes fixed dates or a value per day, as its modality says, never both. */
function discountShapeProblem(d: DueDateDiscountRequest | null | undefined): string | undefined {
  if (!d) return undefined;
  if (FIXED_DATE_DISCOUNT_MODALITIES.includes(d.modality as FixedDateDiscountModality)) {
    if (d.value !== undefined) return D.valueWithFixedDates;
    if (d.fixed_dates === undefined) return D.fixedDatesRequired;
  } else {
    if (d.fixed_dates !== undefined) return D.fixedDatesWithValue;
    if (d.value === undefined) return D.valueInvalid('discount');
  }
  return undefined;
}

function discountOf(d: DueDateDiscountRequest | null | undefined): DueDateDiscount | null {
  if (!d) return null;
  if (FIXED_DATE_DISCOUNT_MODALITIES.includes(d.modality as FixedDateDiscountModality))
    return {
      modality: d.modality as FixedDateDiscountModality,
      fixed_dates: (d.fixed_dates ?? []).map((f) => ({ date: f.date, value: reaisToCentavos(f.value) as number })),
    };
  return { modality: d.modality as EarlyPaymentDiscountModality, value: reaisToCentavos(d.value) as number };
}

const ruleOf = <M>(r: { modality: string; value: number } | null | undefined): DueDateRule<M> | null =>
  r ? { modality: r.modality as M, value: reaisToCentavos(r.value) as number } : null;

const payerOf = (p: DueDateChargePayerRequest): DueDateChargePayer => ({
  document_number: p.document_number,
  name: p.name,
  email: p.email ?? null,
  street: p.street ?? null,
  city: p.city ?? null,
  state: p.state ?? null,
  postal_code: p.postal_code ?? null,
});

/** Exactly one of id and transaction_id, as GET /v2/pix. */
export function validateDueDateChargeQuery(query: unknown): Validated<{ id: number } | { transaction_id: string }> {
  const P = Messages.payments;
  const named = oneIdentifier(query, ['id', 'transaction_id'], { required: P.identifierRequired, onlyOne: P.onlyOneIdentifier });
  if (!named.ok) return named;
  const { key, value } = named.value;
  if (key === 'transaction_id')
    return typeof value === 'string' ? { ok: true, value: { transaction_id: value } } : { ok: false, refusal: validation(P.transactionIdInvalid) };
  const id = recordIdOf(value);
  return id === undefined ? { ok: false, refusal: validation(P.idInvalid) } : { ok: true, value: { id } };
}

class ListDueDateChargesParams extends PeriodPageParams {
  @IsIn(DUE_DATE_CHARGE_STATUSES, { message: D.statusInvalid })
  @OptionalField()
  status?: string;
}

/** The due-date charges created from start (included) to end (excluded), of one status or all, one page, newest first. */
export interface ListDueDateChargesQuery extends PeriodPage {
  status: DueDateChargeStatus | undefined;
}

export function validateListDueDateCharges(query: unknown): Validated<ListDueDateChargesQuery> {
  const checked = validatePeriodPage(ListDueDateChargesParams, query);
  if (!checked.ok) return checked;
  return { ok: true, value: { ...checked.value.period, status: checked.value.params.status as DueDateChargeStatus | undefined } };
}

/** One page of the due-date charges created in the requested period, newest first. */
export interface DueDateChargeListResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's charges, newest first by creation time; list results carry no `qrcode`. */
  charges: DueDateChargeResponse[];
}
