export * from './pix-charge';
export * from './create-pix-charge';
export * from './refund';
export * from './refund-receipt';
export * from './dispute';
export * from './due-date-charge';
