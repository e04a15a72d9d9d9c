import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsNotEmpty, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { IsCpfOrCnpj, IsDateTimeWithZone } from '../recurrences/recurrence.validators';

// POST and PATCH /v2/automatic-pix/solicitations (service-api.md 4.5, 4.7). Decorators run bottom-up.

const S = Messages.solicitations;
const required = (field: string) => ({ message: Messages.required(field) });

/** The payer's account that receives the alert. */
export class SolicitationDestination {
  @MaxLength(4, { message: S.agencyInvalid })
  @IsString({ message: S.agencyInvalid })
  @IsNotEmpty(required('body.destination.agency'))
  @IsDefined(required('body.destination.agency'))
  agency!: string;

  @MaxLength(20, { message: S.accountInvalid })
  @IsString({ message: S.accountInvalid })
  @IsNotEmpty(required('body.destination.account'))
  @IsDefined(required('body.destination.account'))
  account!: string;

  @IsCpfOrCnpj({ message: S.documentInvalid })
  @IsDefined(required('body.destination.document_number'))
  document_number!: string;

  /** The central-bank institution code, not the bank number: a wrong one yields an alert that never arrives. */
  @Matches(/^\d{8}$/, { message: S.ispbInvalid })
  @IsDefined(required('body.destination.ispb'))
  ispb!: string;
}

export class CreateSolicitationRequest {
  @IsString({ message: S.recurrenceIdNotAString })
  @IsNotEmpty(required('body.recurrence_id'))
  @IsDefined(required('body.recurrence_id'))
  recurrence_id!: string;

  /** Once passed with no answer, the recurrence becomes EXPIRED. */
  @IsDateTimeWithZone({ message: S.expiresAtInvalid })
  @IsDefined(required('body.expires_at'))
  expires_at!: string;

  @ValidateNested({ message: S.destinationNotAnObject })
  @Type(() => SolicitationDestination)
  @IsObject({ message: S.destinationNotAnObject })
  @IsDefined(required('body.destination'))
  destination!: SolicitationDestination;
}

export class CancelSolicitationRequest {
  @IsIn(['CANCELLED'], { message: S.statusInvalid })
  @IsDefined(required('body.status'))
  status!: 'CANCELLED';
}
