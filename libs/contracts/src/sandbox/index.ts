export * from './sandbox-clock';
