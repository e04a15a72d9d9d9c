export * from './providers/receipt-provider';
export * from './providers/provider-a';
export * from './providers/provider-b';
export * from './providers/receipt-providers';
export * from './receipt-lookup';
export * from './read-model/receipts.migration';
export * from './read-model/receipts.read-model';
