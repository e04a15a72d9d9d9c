export const CONSOLE_CONFIG = Symbol('CONSOLE_CONFIG');
export const REDIS = Symbol('REDIS');
