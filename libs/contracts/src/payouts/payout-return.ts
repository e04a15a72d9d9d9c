import { Matches, Max } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { reaisToCentavos } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { OptionalField } from '../recurrences/recurrence.validators';
import { validateBody, Validated } from '../validation';

/** POST /v2/sandbox/payouts/:id/return (sandbox): the receiving bank sends a completed payout back. */
@JSONSchema({ description: "What the receiving bank sends back. An empty body returns everything that is left, under the bank's own return id." })
class SandboxPayoutReturnRequest {
  @JSONSchema({
    description: 'Amount sent back, in reais (BRL): positive, at most 2 decimal places, at most what is left of the payout. Absent: everything that is left.',
  })
  @Max(9_999_999_999.99, { message: Messages.transactions.amountTooLarge })
  @HasAtMostTwoDecimals({ message: Messages.transactions.amountDecimals })
  @IsPositiveReais({ message: Messages.transactions.amountPositive })
  @OptionalField()
  amount?: number;

  // Absent: the bank's own return id (its rtrId). The bank's ids are letters and digits.
  @JSONSchema({
    description:
      "The identifier the payout will show as `refund_id` for this return: 1 to 35 letters and digits, not one already used in your account. Absent: the bank's own return id.",
  })
  @Matches(/^[A-Za-z0-9]{1,35}$/, { message: Messages.payouts.refundIdInvalid })
  @OptionalField()
  refund_id?: string;
}

export function validateSandboxPayoutReturn(body: unknown): Validated<{ amount_centavos: number | undefined; refund_id: string | undefined }> {
  const checked = validateBody(SandboxPayoutReturnRequest, body ?? {}, ['amount', 'refund_id']);
  if (!checked.ok) return checked;
  const r = checked.value;
  return { ok: true, value: { amount_centavos: r.amount === undefined ? undefined : (reaisToCentavos(r.amount) as number), refund_id: r.refund_id } };
}
