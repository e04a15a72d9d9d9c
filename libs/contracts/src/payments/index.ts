export * from './pix-charge';
export * from './create-pix-charge';
