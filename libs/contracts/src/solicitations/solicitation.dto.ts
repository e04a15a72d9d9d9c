import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsNotEmpty, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { IsCpfOrCnpj, IsDateTimeWithZone } from '../recurrences/recurrence.validators';

// POST and PATCH /v2/automatic-pix/solicitations. Decorators run bottom-up.

const S = Messages.solicitations;
const required = (field: string) => ({ message: Messages.required(field) });

/** The payer's account that receives the alert. */
@JSONSchema({ description: "The payer's account whose banking app receives the alert." })
export class SolicitationDestination {
  @JSONSchema({ description: "The payer's branch (agência), up to 4 characters, without a check digit." })
  @MaxLength(4, { message: S.agencyInvalid })
  @IsString({ message: S.agencyInvalid })
  @IsNotEmpty(required('body.destination.agency'))
  @IsDefined(required('body.destination.agency'))
  agency!: string;

  @JSONSchema({ description: "The payer's account number, up to 20 characters." })
  @MaxLength(20, { message: S.accountInvalid })
  @IsString({ message: S.accountInvalid })
  @IsNotEmpty(required('body.destination.account'))
  @IsDefined(required('body.destination.account'))
  account!: string;

  @JSONSchema({
    description:
      "The account holder's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation; the check digits are validated.",
  })
  @IsCpfOrCnpj({ message: S.documentInvalid })
  @IsDefined(required('body.destination.document_number'))
  document_number!: string;

  @JSONSchema({
    description:
      "The ISPB of the payer's institution: its 8-digit central bank code, not the 3-digit bank number. A wrong ISPB yields an alert that never arrives.",
  })
  @Matches(/^\d{8}$/, { message: S.ispbInvalid })
  @IsDefined(required('body.destination.ispb'))
  ispb!: string;
}

@JSONSchema({ description: 'A recurrence to send to the payer for authorization.' })
export class CreateSolicitationRequest {
  @JSONSchema({ description: 'The recurrence to authorize: one of yours, CREATED, with no other solicitation pending.' })
  @IsString({ message: S.recurrenceIdNotAString })
  @IsNotEmpty(required('body.recurrence_id'))
  @IsDefined(required('body.recurrence_id'))
  recurrence_id!: string;

  @JSONSchema({
    description:
      'Deadline for the payer to answer: an ISO 8601 date-time with its time zone (e.g. 2026-12-01T12:00:00-03:00). Once it passes with no answer, the recurrence becomes EXPIRED.',
  })
  @IsDateTimeWithZone({ message: S.expiresAtInvalid })
  @IsDefined(required('body.expires_at'))
  expires_at!: string;

  @JSONSchema({ description: "The payer's account whose banking app receives the alert." })
  @ValidateNested({ message: S.destinationNotAnObject })
  @Type(() => SolicitationDestination)
  @IsObject({ message: S.destinationNotAnObject })
  @IsDefined(required('body.destination'))
  destination!: SolicitationDestination;
}

@JSONSchema({ description: 'Cancels a solicitation the payer has not answered.' })
export class CancelSolicitationRequest {
  @JSONSchema({ description: 'Only `CANCELLED`.' })
  @IsIn(['CANCELLED'], { message: S.statusInvalid })
  @IsDefined(required('body.status'))
  status!: 'CANCELLED';
}
