import { Messages, validation } from '@pixauto/errors';
import { reaisToCentavos } from '@pixauto/pix';
import { FieldTree, isJsonObject, unknownFields } from '../recurrences/fields';
import { validateBody, Validated } from '../validation';
import { CreatePayoutRequest } from './create-payout.dto';

/** `/v2/payout/pix` pays a Pix key or an account; `/v2/payout` pays an account. */
export type PayoutRoute = 'pix' | 'account';

const BANK_FIELDS: FieldTree = { ispb: true, account_agency: true, account_number: true };
const FIELDS: Record<PayoutRoute, FieldTree> = {
  pix: { transaction_id: true, amount: true, name: true, document_number: true, pix_key: true, bank: BANK_FIELDS, webhook: true },
  account: { transaction_id: true, amount: true, name: true, document_number: true, bank: BANK_FIELDS, webhook: true },
};

/** A valid payout request, with the amount in centavos and exactly one destination. */
export interface PayoutRequest {
  transaction_id: string;
  amount_centavos: number;
  name: string;
  document_number: string;
  destination: { pix_key: string } | { ispb: string; account_agency: string; account_number: string };
  webhook: string | null;
}

/** Unknown fields first, then every field rule, then the destination: exactly one of pix_key and bank. */
export function validateCreatePayout(route: PayoutRoute, body: unknown): Validated<PayoutRequest> {
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = unknownFields(body, FIELDS[route]);
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const checked = validateBody(CreatePayoutRequest, body, Object.keys(FIELDS[route]));
  if (!checked.ok) return checked;
  const { transaction_id, amount, name, document_number, pix_key, bank, webhook } = checked.value;
  if (route === 'account' && bank === undefined) return { ok: false, refusal: validation(Messages.transactions.bankRequired) };
  if (pix_key === undefined && bank === undefined) return { ok: false, refusal: validation(Messages.transactions.destinationRequired) };
  if (pix_key !== undefined && bank !== undefined) return { ok: false, refusal: validation(Messages.transactions.onlyOneDestination) };
  return {
    ok: true,
    value: {
      transaction_id,
      amount_centavos: reaisToCentavos(amount) as number,
      name,
      document_number,
      destination: pix_key !== undefined ? { pix_key } : { ispb: bank!.ispb, account_agency: bank!.account_agency, account_number: bank!.account_number },
      webhook: webhook ?? null,
    },
  };
}
