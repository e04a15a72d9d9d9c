import { Messages, validation } from '@pixauto/errors';
import { validateBody, Validated } from '../validation';
import { FieldTree, isJsonObject, unknownFields } from '../recurrences/fields';
import { CancelSolicitationRequest, CreateSolicitationRequest } from './solicitation.dto';

export const CREATE_SOLICITATION_FIELDS: FieldTree = {
  recurrence_id: true,
  expires_at: true,
  destination: { agency: true, account: true, document_number: true, ispb: true },
};

/** POST /v2/automatic-pix/solicitations: unknown fields, nested ones by path, then every field rule. */
export function validateCreateSolicitation(body: unknown): Validated<CreateSolicitationRequest> {
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = unknownFields(body, CREATE_SOLICITATION_FIELDS);
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  return validateBody(CreateSolicitationRequest, body, Object.keys(CREATE_SOLICITATION_FIELDS));
}

/** PATCH /v2/automatic-pix/solicitations/:solicitation_id. No body reads as a body without status. */
export function validateCancelSolicitation(body: unknown): Validated<CancelSolicitationRequest> {
  return validateBody(CancelSolicitationRequest, body ?? {}, ['status']);
}
