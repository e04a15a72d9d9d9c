// Every message a merchant can read, in one place. Texts quoted from the specification are a
// contract: they are matched character for character. The others are ours (docs/decisions/).

const backticked = (names: string[]): string => '`' + names.join(', ') + '`';

export const Messages = {
  required: (field: string) => `${field} is a required field`,
  unknownFields: (names: string[]) => `${backticked(names)} is not a field of this endpoint`,

  auth: {
    apiKeyInvalid: 'Api Key Invalid!',
    apiKeyReadOnly: 'Api Key is read-only!',
    transactionsForbidden: 'Access to transactions is forbidden for this API key!',
    adminTokenInvalid: 'Admin Token Invalid!',
  },

  // Idempotency-Key on POSTs (docs/decisions/idempotency.md).
  idempotency: {
    keyInvalid: 'header Idempotency-Key must be 1 to 255 printable ASCII characters',
    otherRequest: 'Idempotency-Key was already used with another request: use a new key for a new request',
    inProgress: 'A request with this Idempotency-Key is still running: retry after it has been answered',
  },

  request: {
    unstorableText: (path: string) => `${path} must be text without NUL characters or unpaired surrogates`,
    duplicateKey: (path: string) => `${path} is given twice: name each field once`,
    bodyOnRead: (method: string) => `a ${method} request takes no body`,
    badUrl: 'the URL is not valid: check its percent-encoding',
    paramTooLong: (max: number) => `path parameters must be at most ${max} characters`,
    headersTooLarge: 'request headers must be at most 16384 bytes in all',
    timeout: 'the request was not received in time',
    malformedHttp: 'the request is not valid HTTP/1.1',
    malformedJson: 'body is not valid JSON',
    contentType: 'Content-Type must be application/json',
    tooLarge: (bytes: number) => `body must be at most ${bytes} bytes`,
    notAnObject: 'body must be a JSON object',
    routeNotFound: 'Route not found',
    serviceUnavailable: 'Service temporarily unavailable, retry later',
    rateLimited: (limit: number) =>
      `Too many requests: this account may make ${limit} requests per second in this environment, whichever of its API keys sends them; retry after the Retry-After seconds`,
  },

  limits: {
    documentInvalidBody: 'body.document_number is invalid',
    documentInvalidQuery: 'query.document_number is invalid',
    typeInvalidBody: 'body.type must be one of cashin or cashout',
    typeInvalidQuery: 'query.type must be one of cashin or cashout',
    mechanismInvalid: 'body.mechanism must be one of amount or quantity',
    amountPositive: 'body.amount must be a positive number',
    amountDecimals: 'body.amount must have at most 2 decimal places',
    amountTooLarge: 'body.amount must be at most 9999999999.99',
    amountNotForQuantity: 'body.amount is only accepted when mechanism is amount',
    quantityPositive: 'body.quantity must be a positive integer',
    quantityTooLarge: 'body.quantity must be at most 2147483647',
    quantityNotForAmount: 'body.quantity is only accepted when mechanism is quantity',
    detailsTooLong: 'body.details must be a string of at most 4096 characters',
    notFound: 'No limit found for this customer',
  },

  admin: {
    nameRequired: 'body.name must be a non-empty string of at most 140 characters',
    walletBoolean: 'body.wallet must be true or false',
    cashinProvider: 'body.cashin_provider must be one of PROVIDER_A, PROVIDER_B, PROVIDER_C',
    providers: 'body.providers must be an array of {code, credentials}, each code PROVIDER_A or PROVIDER_B at most once',
    environment: 'body.environment must be one of production or sandbox',
    environmentQuery: 'query.environment must be one of production or sandbox',
    readOnlyBoolean: 'body.read_only must be true or false',
    apiKeyName: 'body.name must be a string of 1 to 100 characters',
    transactionsBoolean: 'body.transactions must be true or false',
    accountNotFound: 'Account not found',
    apiKeyNotFound: 'Api key not found',
    rateLimit: 'body.rate_limit must be an object of production and/or sandbox, each a whole number of requests per second from 1 to 100000',
    nothingToChange: 'body must set at least one of `wallet`, `cashin_provider`, `providers`, `rate_limit`',
    consoleEmail: 'body.email must be an email address of at most 254 characters',
    consoleRole: 'body.role must be one of owner, developer, viewer',
    consolePassword: 'body.password must be a string of 12 to 128 characters',
    consoleEmailTaken: 'body.email already belongs to a console user of this account',
    consoleSignInRefused: 'Email or password is wrong',
    consolePasswordChecksBusy: 'Too many sign-ins at this moment: try again in a second',
    consoleUserNotFound: 'Console user not found',
    consoleLastOwner: 'The account must keep at least one owner: make another user an owner first',
    consoleSignInToken: "body.token must be a sign-in link's token",
    consoleSignInLinkInvalid: 'This sign-in link has expired or was already used: ask an owner of your account for a new one',
    consoleNewPassword: 'body.new_password must be a string of 12 to 128 characters',
    consoleCurrentPassword: 'body.current_password must be a string of at most 128 characters',
    consoleCurrentPasswordWrong: 'body.current_password is wrong',
    requestLogLimit: 'query.limit must be a whole number from 1 to 100',
    requestLogFailed: 'query.failed must be true or false',
    requestLogCursor: 'query.cursor must be the next_cursor of an earlier page',
    requestLogText: (field: string) => `query.${field} must be at most 2048 characters`,
  },

  // The merchant console's own routes (its server, not the merchant API).
  console: {
    signedOut: 'Sign in to continue: no session, or it has ended',
    signInRefused: 'Email or password is wrong',
    tooManySignIns: 'Too many sign-in attempts: wait a few minutes and try again',
    csrf: 'This request lacks the CSRF token of your session: reload the page and try again',
    originRefused: "This request comes from another site: changes are accepted from the console's own pages only",
    originFormOnly: 'The request line must carry a path, not an address',
    routeNotPassed: 'Not found: the console passes to the merchant API only the routes its pages use',
    roleRefused: (role: string, environment: string) => `A ${role} may not make changes in ${environment}`,
    environment: 'The environment must be production or sandbox',
    email: 'body.email must be a string of at most 254 characters',
    password: 'body.password must be a string of at most 128 characters',
    ownerOnly: 'Only an owner may rotate the webhook signing secret',
    endpointSecretOwnerOnly: "Only an owner may reveal or rotate a webhook endpoint's signing secret",
    teamOwnerOnly: "Only an owner may manage the account's console users",
    auditOwnerOnly: "Only an owner may read the account's audit log",
    tooManyPasswordAttempts: 'Too many password attempts: wait a few minutes and try again',
    consoleKey: "This key is the console's own, which it uses to show you your data: it cannot be revoked here",
  },

  // The merchant's webhook delivery log (ours).
  webhooks: {
    deliveryNotFound: 'Delivery not found',
    statusInvalid: 'query.status must be one of pending, delivered, failed, cancelled',
    eventTypeInvalid: (known: readonly string[]) => `query.event_type must be one of ${known.join(', ')}`,
    resourceIdInvalid: 'query.resource_id must be a string of at most 100 characters',
    dateTimeInvalid: (field: string) => `${field} must be a date (YYYY-MM-DD) or a date-time with its zone (ISO 8601)`,
    periodOrder: 'query.start must be before query.end',
    pageInvalid: 'query.page must be an integer of at least 0',
    pageSizeInvalid: 'query.page_size must be an integer from 1 to 100',
    testEventTypeInvalid: (known: readonly string[]) => `body.event_type must be one of ${known.join(', ')}`,
    testUrlInvalid: 'body.url must be an http(s) URL of at most 255 characters',
    testUrlRefused: (reason: string) => `body.url is refused: ${reason}`,
    endpointNotFound: 'Webhook endpoint not found',
    endpointUrlInvalid: 'body.url must be an http(s) URL of at most 255 characters',
    endpointEventTypesInvalid: 'body.event_types must be an array of event types ([] or absent: every event type)',
    endpointEventTypeInvalid: (known: readonly string[]) => `body.event_types must hold only event types, each one of ${known.join(', ')}`,
    endpointDescriptionInvalid: 'body.description must be a string of at most 200 characters, or null',
    endpointEnabledInvalid: 'body.enabled must be true or false',
    endpointNothingToChange: 'body must set at least one of url, event_types, description, enabled',
    endpointLimit: (limit: number) => `An account may have at most ${limit} webhook endpoints in each environment: delete one before adding another`,
    endpointOverlapInvalid: 'body.previous_secret_expires_in_hours must be an integer from 0 to 168',
    endpointUrlRefused: (reason: string) => `The webhook endpoint's url is refused: ${reason}`,
    endpointDisabled: 'The webhook endpoint is disabled: enable it (PATCH enabled: true) before sending it a test event',
    endpointIdInvalid: 'query.endpoint_id must be a webhook endpoint id (a UUID)',
    tooManyListeners: (limit: number) =>
      `Too many listeners at once: this account may hold ${limit} event streams at a time; retry after the Retry-After seconds, once one has closed`,
  },

  // Lists by creation period, paged (the specification's "Listings" messages): the recurrences, the Pix charges and
  // their refunds share these.
  lists: {
    periodRequired: 'start and end are required',
    dateTimeInvalid: (field: string) => `${field} must be an ISO 8601 date-time with a time zone`,
    pageInvalid: 'query.page must be an integer of at least 0',
    pageSizeInvalid: 'query.page_size must be an integer of at least 1',
  },

  // Recurrences (docs/api/recurrences.md). Messages without a field prefix are quoted as the spec writes them.
  recurrences: {
    notFound: 'Recurrence not found',
    noWallet: 'client has no wallet configured',
    transactionIdTaken: 'body.transaction_id already exists',
    transactionIdTooLong: 'transaction_id must be at most 35 characters',
    contractRenamed: '`contract` is not a field of this endpoint anymore -- use `transaction_id`',
    notAString: (field: string) => `${field} must be a string`,
    notAnObject: (field: string) => `${field} must be an object`,
    dateFormat: (field: string) => `${field} must be YYYY-MM-DD`,
    dateInvalid: (field: string) => `${field} is not a valid date`,
    startDateNotAfterToday: 'body.schedule.start_date must be after today (Brasília time)',
    endDateNotAfterStartDate: 'body.schedule.end_date must be after schedule.start_date',
    periodicityInvalid: 'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL',
    objectTooLong: 'body.object must be at most 35 characters',
    documentInvalid: 'body.debtor.document_number is invalid',
    debtorNameTooLong: 'body.debtor.name must be at most 100 characters',
    emailInvalid: 'body.debtor.email must be a valid email of at most 140 characters',
    streetTooLong: 'body.debtor.address.street must be at most 200 characters',
    cityTooLong: 'body.debtor.address.city must be at most 200 characters',
    stateInvalid: 'body.debtor.address.state must be 2 upper-case letters',
    zipCodeInvalid: 'zip_code must be 8 digits',
    amountRequired: 'amount is required: variable-amount mandates are not supported',
    amountPositive: 'body.amount must be a positive number',
    amountDecimals: 'body.amount must have at most 2 decimal places',
    amountTooLarge: 'body.amount must be at most 9999999999.99',
    retryPolicyInvalid: 'body.retry_policy must be one of the following values: NOT_ALLOWED, ALLOWS_3R_7D',
    businessDayAdjustInvalid: 'body.business_day_adjust must be true or false',
    chargeLeadDaysInvalid: 'body.charge_lead_days must be an integer between 3 and 10',
    webhookInvalid: 'body.webhook must be a URL of at most 255 characters',
    activationAmountPositive: 'body.activation_amount must be a positive number',
    activationAmountDecimals: 'body.activation_amount must have at most 2 decimal places',
    activationAmountTooLarge: 'body.activation_amount must be at most 9999999999.99',
    activationExpiresInInvalid: 'body.activation_expires_in must be an integer between 1 and 86400',
    locationIdInvalid: 'body.location_id must be a positive integer',

    // PATCH
    nothingToChange: 'body must set at least one changeable field: `debtor_name`, `start_date`, `status`, `webhook`, `business_day_adjust`, `charge_lead_days`',
    unchangeable: (names: string[]) =>
      `${backticked(names)} cannot be changed after a recurrence is created. To change ${names.length === 1 ? 'it' : 'them'}, ` +
      'cancel this recurrence and create a new one with a new transaction_id, which the payer authorizes again',
    notChangeable: (names: string[]) =>
      `${backticked(names)} is not a field of this endpoint. Changeable: ` +
      '`debtor_name`, `start_date`, `status`, `webhook`, `business_day_adjust`, `charge_lead_days`',
    statusInvalid: 'body.status must be one of the following values: CANCELLED',
    newStartDateNotAfterToday: 'body.start_date must be after today (Brasília time)',
    debtorNameEmpty: 'body.debtor_name must not be empty',
    newDebtorNameTooLong: 'body.debtor_name must be at most 140 characters',
    newWebhookInvalid: 'body.webhook must be a URL of at most 255 characters, or null or "" to clear it',

    // Lifecycle: what the spec leaves open, answered plainly
    startDateNotBeforeEndDate: 'body.start_date must be before schedule.end_date',
    ended: (status: string) => `the recurrence is ${status} and can no longer be changed`,
    notAwaitingPayer: (status: string) => `the recurrence is ${status}: the payer can only answer a CREATED recurrence`,
    activationExpired: 'the activation payment expired unpaid: this recurrence can no longer be authorized; cancel it and create a new one',
  },

  // Solicitations (journey 1).
  solicitations: {
    notFound: 'Solicitation not found',
    recurrenceNotFound: 'Recurrence not found',
    recurrenceIdNotAString: 'body.recurrence_id must be a string',
    expiresAtInvalid: 'body.expires_at must be an ISO 8601 date-time with a time zone',
    destinationNotAnObject: 'body.destination must be an object',
    agencyInvalid: 'body.destination.agency must be a string of at most 4 characters',
    accountInvalid: 'body.destination.account must be a string of at most 20 characters',
    documentInvalid: 'body.destination.document_number is invalid',
    ispbInvalid: 'body.destination.ispb must be exactly 8 characters',
    statusInvalid: 'body.status must be one of the following values: CANCELLED',

    // Lifecycle and the sandbox payer
    alreadyActive: 'the recurrence already has an active solicitation: cancel it or wait for its answer',
    recurrenceNotAwaiting: (status: string) => `the recurrence is ${status}: only a CREATED recurrence can be sent for authorization`,
    ended: (outcome: string) => `the solicitation is ${outcome} and can no longer be cancelled`,
    notReceived: 'the payer has not received this solicitation yet',
    answered: (outcome: string) => `the solicitation is ${outcome}: the payer can no longer answer it`,
    decisionInvalid: 'body.decision must be one of the following values: ACCEPT, REJECT',
  },

  // Charges (docs/decisions/charges.md). Messages without a field prefix are quoted as the spec writes them.
  charges: {
    notFound: 'Charge not found',
    statusInvalid: 'body.status must be one of the following values: CANCELLED',
    dateRequired: 'date is required',
    dateFormat: 'date must be YYYY-MM-DD',
    dateInvalid: 'date is not a valid date',
    dateNotAfterToday: 'date must be after today (Brasília time)',
    activationNotCancellable: 'an activation charge cannot be cancelled: it is an immediate Pix payment, not a scheduled debit',
    activationNotRetryable: 'an activation charge cannot be retried: it is an immediate Pix payment, not a scheduled debit',
    activationNotReschedulable: 'an activation charge cannot be rescheduled: it is an immediate Pix payment, not a scheduled debit',
    activationBySandboxPayer: 'an activation charge is paid when the payer authorizes: use POST /v2/sandbox/recurrences/:recurrence_id/authorize',
    notCancellable: (status: string) => `the charge is ${status} and can no longer be cancelled`,
    notReschedulable: (status: string) => `the charge is ${status}: only a SCHEDULED charge can be rescheduled`,
    notBeforeNextCycle: (nextCycleDate: string) => `date must be before the next cycle's date (${nextCycleDate})`,
    notPending: (status: string) => `the charge is ${status}: there is no pending debit attempt`,
    duePeriodRequired: 'due_from and due_to are required',
    dueDateFormat: (field: string) => `${field} must be YYYY-MM-DD`,
    dueDateInvalid: (field: string) => `${field} is not a valid date`,
    duePeriodReversed: 'query.due_to must not be before query.due_from',
    listStatusInvalid: 'query.status must be one of the following values: SCHEDULED, PAID, FAILED, CANCELLED, EXPIRED',
  },

  // The sandbox test clock (docs/decisions/sandbox-clock.md).
  sandboxClock: {
    nothingToAdvance: 'body must set `days` or `hours`',
    daysInvalid: 'body.days must be a non-negative integer',
    hoursInvalid: 'body.hours must be a non-negative integer',
    tooFar: 'the clock can advance at most 3660 days in one call',
  },

  payments: {
    identifierRequired: 'one of id, transaction_id is required',
    onlyOneIdentifier: 'please provide only one of id, transaction_id',
    idInvalid: 'query.id must be a positive integer',
    transactionIdInvalid: 'query.transaction_id must be a string',
    notFound: 'Pix charge not found',
    pathIdInvalid: 'params.id must be a positive integer',
    statusInvalid: 'query.status must be one of the following values: PENDING, PAID, EXPIRED',
    notPayable: (status: string) => `the Pix charge is ${status}: only a PENDING charge can be paid`,
  },

  // POST /v2/transactions/refund and the sandbox's refunds (docs/decisions/refunds.md): the spec shows no shape either.
  refunds: {
    identifierRequired: 'one of id, transaction_id is required',
    onlyOneIdentifier: 'please provide only one of id, transaction_id',
    idInvalid: 'body.id must be a positive integer',
    transactionIdInvalid: 'body.transaction_id must be a string',
    refundIdRequired: 'body.refund_id is a required field',
    refundIdInvalid: 'body.refund_id must be a string of at most 35 characters',
    refundIdTaken: 'body.refund_id already exists',
    /** The spec's wording for a charge that is unknown or another account's. */
    transactionNotFound: 'Transaction not found!',
    notFound: 'Refund not found',
    notPaid: (status: string) => `the transaction is ${status}: only a PAID transaction can be refunded`,
    notTraceable: 'this transaction cannot be refunded: the bank named no payment for it',
    fullyRefunded: 'the transaction has already been refunded in full',
    amountExceeds: (left: string) => `body.amount must be at most what is left to refund of the transaction: ${left}`,
  },

  // Pix disputes (docs/decisions/disputes.md): the payer's bank's claims on a Pix received, and the merchant's defence.
  disputes: {
    notFound: 'Dispute not found',
    pathIdInvalid: 'params.id must be a positive integer',
    evidenceIdInvalid: 'params.evidence_id must be a positive integer',
    evidenceNotFound: 'Evidence not found',
    statusInvalid: 'query.status must be one of the following values: OPEN, DEFENDED, RETURNED, REJECTED',
    textInvalid: 'body.text must be a non-empty string of at most 5000 characters',
    evidenceInvalid: 'body.evidence must be a list of at most 3 files',
    evidenceFileInvalid: (i: number) => `body.evidence[${i}] must be an object of file_name, content_type and content_base64`,
    fileNameInvalid: (i: number) => `body.evidence[${i}].file_name must be a non-empty string of at most 200 characters`,
    contentTypeInvalid: (i: number) => `body.evidence[${i}].content_type must be one of the following values: application/pdf, image/png, image/jpeg`,
    contentInvalid: (i: number) => `body.evidence[${i}].content_base64 must be the file's bytes in base64`,
    fileTooLarge: (i: number) => `body.evidence[${i}] must be at most 200 KiB (204800 bytes)`,
    contentMismatch: (i: number, type: string) => `body.evidence[${i}] is not a ${type} file: its content does not match its content_type`,
    notPaid: (status: string) => `the transaction is ${status}: only a PAID transaction can be disputed`,
    alreadyOpen: 'the transaction already has a dispute in progress',
    notTraceable: 'this transaction cannot be disputed: the bank named no payment for it',
    claimExceeds: (paid: string) => `body.amount must be at most what was paid: ${paid}`,
    defenceLate: (deadline: string) => `the deadline for a defence passed at ${deadline}: no defence is accepted any more`,
    defenceTwice: 'a defence has already been sent for this dispute: only one is accepted',
    defenceClosed: (status: string) => `the dispute is ${status}: a defence is accepted only while it is OPEN`,
    returnExceedsBlocked: (blocked: string) => `the return must be at most the blocked amount: ${blocked}`,
    blocked: (left: string, blocked: string) =>
      `body.amount must be at most what is left to refund of the transaction: ${left} (${blocked} is held by a dispute in progress)`,
    reasonInvalid: 'body.reason must be one of the following values: FRAUD, OPERATIONAL_FLAW, PIX_AUTOMATICO',
    outcomeInvalid: 'body.outcome must be one of the following values: RETURNED, PARTIALLY_RETURNED, REJECTED',
    amountInvalid: 'body.amount must be a positive amount in reais with at most 2 decimal places',
    defenceDaysInvalid: 'body.defence_days must be a whole number of days from 1 to 30',
    concludeDaysInvalid: 'body.conclude_after_days must be a whole number of days from 1 to 60, after defence_days',
  },

  // GET /v2/transactions/refund/receipt (docs/decisions/receipts.md): quoted as the spec writes them.
  receipts: {
    onlyOneIdentifier: 'please provide only one of refund_id, id, transaction_id',
    identifierRequired: 'one of refund_id, id, transaction_id is required!',
    idInvalid: 'query.id must be a positive integer',
    notSupported: (provider: string) => `Refund receipts are not supported for provider ${provider}.`,
    notEnabled: (provider: string) => `${provider} is not enabled for this account.`,
    belongsToPayout: 'This refund belongs to a payout. Use GET /v2/withdrawals/refund/receipt instead.',
    transactionNotFound: 'Transaction not found!',
    noRefund: 'No refund found for this transaction!',
    notAvailable: 'Receipt not available yet: this refund has no provider identifier.',
    ambiguous: 'This transaction has more than one refund. Pass refund_id to choose one.',
    failed: (provider: string) => `Failed to retrieve the refund receipt from ${provider}.`,
    // The payout side: GET /v2/withdrawals/refund/receipt and /v2/withdrawals/receipt, worded as the refund's.
    payoutNotFound: 'Payout not found!',
    noPayoutRefund: 'No refund found for this payout!',
    payoutAmbiguous: 'This payout has more than one refund. Pass refund_id to choose one.',
    belongsToTransaction: 'This refund belongs to a transaction. Use GET /v2/transactions/refund/receipt instead.',
    payoutIdentifierRequired: 'one of id, transaction_id is required!',
    payoutOnlyOneIdentifier: 'please provide only one of id, transaction_id',
    payoutNotSupported: (provider: string) => `Payout receipts are not supported for provider ${provider}.`,
    payoutNotCompleted: 'Receipt not available yet: the payout is not completed.',
    payoutFailed: (provider: string) => `Failed to retrieve the payout receipt from ${provider}.`,
  },

  // POST /v2/pix and the payouts: the spec shows no shape, so these are worded as its other field messages.
  transactions: {
    transactionIdRequired: 'body.transaction_id is a required field',
    transactionIdNotAString: 'body.transaction_id must be a string',
    transactionIdTooLong: 'transaction_id must be at most 35 characters',
    transactionIdTaken: 'body.transaction_id already exists',
    amountRequired: 'body.amount is a required field',
    amountPositive: 'body.amount must be a positive number',
    amountDecimals: 'body.amount must have at most 2 decimal places',
    amountTooLarge: 'body.amount must be at most 9999999999.99',
    webhookInvalid: 'body.webhook must be a URL of at most 255 characters',
    // cash-in
    payerRequired: 'body.payer is a required field',
    payerNotAnObject: 'body.payer must be an object',
    payerDocumentInvalid: 'body.payer.document_number is invalid',
    payerNameRequired: 'body.payer.name is a required field',
    payerNameInvalid: 'body.payer.name must be a string of at most 100 characters',
    expiresInInvalid: 'body.expires_in must be an integer between 1 and 86400',
    descriptionInvalid: 'body.description must be a string of at most 140 characters',
    // cash-out
    nameRequired: 'body.name is a required field',
    nameInvalid: 'body.name must be a string of at most 100 characters',
    documentRequired: 'body.document_number is a required field',
    documentInvalid: 'body.document_number is invalid',
    pixKeyInvalid: 'body.pix_key must be a Pix key: a CPF, a CNPJ, an e-mail, a phone as +55 and digits, or a random key (UUID)',
    destinationRequired: 'one of pix_key, bank is required',
    onlyOneDestination: 'please provide only one of pix_key, bank',
    bankRequired: 'body.bank is a required field',
    bankNotAnObject: 'body.bank must be an object',
    bankIspbInvalid: 'body.bank.ispb must be exactly 8 digits',
    bankAgencyInvalid: 'body.bank.account_agency must be 1 to 4 digits',
    bankAccountInvalid: 'body.bank.account_number must be 1 to 20 digits, a hyphen and a check digit allowed',
  },

  payouts: {
    notFound: 'Payout not found',
    statusInvalid: 'body.status must be one of the following values: 1, 2, 3, 4',
    ended: (status: number, name: string) => `the payout is ${name} (${status}) and can no longer change`,
    notReturnable: (status: number, name: string) => `the payout is ${name} (${status}): only a completed payout can be returned`,
    fullyReturned: 'the payout has already been returned in full',
    returnExceeds: (left: string) => `body.amount must be at most what is left to return of the payout: ${left}`,
    refundIdInvalid: 'body.refund_id must be 1 to 35 letters and digits',
  },

  // Payout lookups (docs/decisions/payout-lookups.md). Messages without a field prefix are quoted as the spec writes them.
  // The money moved per day (ours: docs/api/reports.md).
  reports: {
    dayInvalid: (field: string) => `${field} must be a date, YYYY-MM-DD`,
    periodOrder: 'query.end_day must not be before query.start_day',
    periodTooLong: (days: number) => `a report covers at most ${days} days: narrow query.start_day to query.end_day`,
  },

  withdrawals: {
    sizeTooLarge: 'size must be less than or equal to 100',
    startNotBeforeEnd: 'start date must be less than end date',
    documentInvalid: 'document_number is invalid',
    noneForCustomer: 'No withdrawals found for this customer',
    notFound: 'Payout not found',
    identifierRequired: 'one of id, transaction_id is required',
    onlyOneIdentifier: 'please provide only one of id, transaction_id',
    idInvalid: 'query.id must be a positive integer',
    dateRequired: (field: 'start' | 'end') => `query.${field} is a required field`,
    dateInvalid: (field: 'start' | 'end') => `query.${field} must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)`,
    pageInvalid: 'query.page must be a positive integer',
    sizeInvalid: 'query.size must be a positive integer',
    statusInvalid: 'query.status must be one of the following values: 0, 1, 2, 3, 4',
    documentRequired: 'query.document_number is a required field',
    exportsPerAccount: (limit: number) =>
      `Too many CSV exports at once: this account may run ${limit} at a time; retry after the Retry-After seconds, once one has finished`,
    exportsBusy: 'Too many CSV exports at once; retry after the Retry-After seconds',
  },

  // Customer limits enforced (docs/decisions/limits.md; the refusal is a LimitExceededError).
  limitExceeded: {
    amount: (type: string, documentNumber: string, amount: string, limit: string) =>
      `${type} limit exceeded for customer ${documentNumber}: ${amount} is above the limit of ${limit} per transaction`,
    quantity: (type: string, documentNumber: string, limit: number) =>
      `${type} limit exceeded for customer ${documentNumber}: the limit of ${limit} transaction${limit === 1 ? '' : 's'} per day (Brasília time) is reached`,
  },
} as const;
