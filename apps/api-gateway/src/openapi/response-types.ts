// The types whose JSON Schemas the documents name for answers and hand-checked bodies: ts-json-schema-generator reads
// this file (npm run api:generate) and writes response-schemas.generated.ts. Types only: nothing of it runs.
export type {
  AccountResponse,
  ApiKeyListResponse,
  ApiKeyResponse,
  ChargeResponse,
  ConsoleSignInLinkResponse,
  ConsoleUserListResponse,
  ConsoleUserResponse,
  DeliveriesRetriedResponse,
  DeliveryListResponse,
  DeliveryResponse,
  LimitResponse,
  PayoutReceiptResponse,
  PayoutResponse,
  PixChargeListResponse,
  PixChargeResponse,
  RecurrenceListResponse,
  RecurrenceResponse,
  RefundListResponse,
  RefundReceiptResponse,
  RefundResponse,
  RequestLogPage,
  SandboxClockResponse,
  SolicitationResponse,
  WebhookSecretRotatedResponse,
} from '@pixauto/contracts';
export type * from './shapes'; // every interface of shapes.ts
