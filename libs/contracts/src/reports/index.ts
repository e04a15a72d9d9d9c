export * from './daily-totals';
