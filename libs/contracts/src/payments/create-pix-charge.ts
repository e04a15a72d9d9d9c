import { Messages, validation } from '@pixauto/errors';
import { reaisToCentavos } from '@pixauto/pix';
import { FieldTree, isJsonObject, unknownFields } from '../recurrences/fields';
import { validateBody, Validated } from '../validation';
import { CreatePixChargeRequest } from './create-pix-charge.dto';
import { PixChargePayer } from './pix-charge';

const FIELDS: FieldTree = {
  transaction_id: true,
  amount: true,
  payer: { document_number: true, name: true },
  expires_in: true,
  webhook: true,
  description: true,
};

export const DEFAULT_PIX_CHARGE_EXPIRES_IN = 3600;

/** A valid POST /v2/pix, defaults applied, the amount in centavos. */
export interface PixChargeRequest {
  transaction_id: string;
  amount_centavos: number;
  payer: PixChargePayer;
  expires_in: number;
  webhook: string | null;
  description: string | null;
}

/** Unknown fields first (nested ones by their path), then every field rule, all problems in one message. */
export function validateCreatePixCharge(body: unknown): Validated<PixChargeRequest> {
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = unknownFields(body, FIELDS);
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  const checked = validateBody(CreatePixChargeRequest, body, Object.keys(FIELDS));
  if (!checked.ok) return checked;
  const r = checked.value;
  return {
    ok: true,
    value: {
      transaction_id: r.transaction_id,
      amount_centavos: reaisToCentavos(r.amount) as number,
      payer: { document_number: r.payer.document_number, name: r.payer.name },
      expires_in: r.expires_in ?? DEFAULT_PIX_CHARGE_EXPIRES_IN,
      webhook: r.webhook ?? null,
      description: r.description ?? null,
    },
  };
}
