export * from './pix-charge';
export * from './read-model/pix-charges.migration';
export * from './read-model/pix-charges.projection';
