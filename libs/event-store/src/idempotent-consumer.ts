import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a message handler at most once per (consumer, message id): the ledger row and the handler's writes
 * commit together, so a redelivered message finds its row and does nothing. Returns false for a duplicate.
 */
export async function processOnce(dataSource: DataSource, consumer: string, messageId: string, handle: (tx: EntityManager) => Promise<void>): Promise<boolean> {
  return dataSource.transaction(async (tx) => {
    const inserted: unknown[] = await tx.query(`INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`, [
      consumer,
      messageId,
    ]);
    if (inserted.length === 0) return false;
    await handle(tx);
    return true;
  });
}
