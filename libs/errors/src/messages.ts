// Every message a merchant can read, in one place. Texts quoted from service-api.md are a contract:
// they are matched character for character. The others are ours (platform.md and README decisions).

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

  request: {
    malformedJson: 'body is not valid JSON',
    contentType: 'Content-Type must be application/json',
    tooLarge: (bytes: number) => `body must be at most ${bytes} bytes`,
    notAnObject: 'body must be a JSON object',
    routeNotFound: 'Route not found',
    serviceUnavailable: 'Service temporarily unavailable, retry later',
  },

  limits: {
    documentInvalidBody: 'body.document_number is invalid',
    documentInvalidQuery: 'query.document_number is invalid',
    typeInvalidBody: 'body.type must be one of cashin or cashout',
    typeInvalidQuery: 'query.type must be one of cashin or cashout',
    mechanismInvalid: 'body.mechanism must be one of amount or quantity',
    amountPositive: 'body.amount must be a positive number',
    amountDecimals: 'body.amount must have at most 2 decimal places',
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
    readOnlyBoolean: 'body.read_only must be true or false',
    transactionsBoolean: 'body.transactions must be true or false',
    accountNotFound: 'Account not found',
    apiKeyNotFound: 'Api key not found',
    nothingToChange: 'body must set at least one of `wallet`, `cashin_provider`, `providers`',
  },
} as const;
