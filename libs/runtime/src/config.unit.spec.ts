import { DATABASE_POOL_BUDGET, DATABASE_POOL_SHARES, serviceConfig } from './config';

describe('the database pool of a process', () => {
  it("is its app's share of PostgreSQL's connections", () => {
    expect(serviceConfig('limits-service', 4005, {}).databasePoolSize).toBe(DATABASE_POOL_SHARES['limits-service']);
  });

  it('is divided among the replicas of the app, rounded up', () => {
    expect(serviceConfig('limits-service', 4005, { DATABASE_POOL_REPLICAS: '2' }).databasePoolSize).toBe(9);
    expect(serviceConfig('receipt-service', 4011, { DATABASE_POOL_REPLICAS: '2' }).databasePoolSize).toBe(2);
  });

  it('is what DATABASE_POOL_SIZE says, when it says', () => {
    expect(serviceConfig('limits-service', 4005, { DATABASE_POOL_SIZE: '4', DATABASE_POOL_REPLICAS: '2' }).databasePoolSize).toBe(4);
  });

  it("adds up, with the CSV exports' own pool, to no more than the 97 connections PostgreSQL leaves applications", () => {
    expect(DATABASE_POOL_BUDGET).toBe(95);
    expect(DATABASE_POOL_BUDGET).toBeLessThanOrEqual(97);
  });
});
