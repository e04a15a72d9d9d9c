export * from './documents';
export * from './money';
export * from './clock';
export * from './system-clock';
export * from './fixed-clock';
export * from './calendar';
export * from './brcode';
