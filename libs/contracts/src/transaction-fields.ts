import { IsDefined, IsNotEmpty, IsString, Max, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from './limits/limit.validators';

// The two fields every money-moving create shares (POST /v2/pix, POST /v2/payout/pix, POST /v2/payout): the
// merchant's transaction_id and the amount in reais, with the same rules and messages.

const T = Messages.transactions;

type FieldDecorator = (target: object, key: string) => void;

/** Decorators listed as they would be written above the property: applied bottom-up, so the last is checked first. */
function stacked(...decorators: FieldDecorator[]): FieldDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/** `transaction_id`: required, a string, at most 35 characters; `description` is what merchants read. */
export const TransactionIdField = (description: string): FieldDecorator =>
  stacked(
    JSONSchema({ description }),
    MaxLength(35, { message: T.transactionIdTooLong }),
    IsString({ message: T.transactionIdNotAString }),
    IsNotEmpty({ message: T.transactionIdRequired }),
    IsDefined({ message: T.transactionIdRequired }),
  );

/** `amount` in reais: required, positive, at most 2 decimal places, at most MAX_PIX_AMOUNT. */
export const TransactionAmountField = (description: string): FieldDecorator =>
  stacked(
    JSONSchema({ description }),
    Max(MAX_PIX_AMOUNT, { message: T.amountTooLarge }),
    HasAtMostTwoDecimals({ message: T.amountDecimals }),
    IsPositiveReais({ message: T.amountPositive }),
    IsDefined({ message: T.amountRequired }),
  );
