// A charge of a recurrence (platform.md §3): one per cycle, plus the journey 3 activation payment.

export const CHARGE_TYPES = ['cycle', 'activation'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const CHARGE_STATUSES = ['SCHEDULED', 'PAID', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** The charge object of platform.md §3, as every charge endpoint answers it. */
export interface ChargeResponse {
  charge_id: string;
  recurrence_id: string;
  type: ChargeType;
  amount: number;
  due_date: string;
  status: ChargeStatus;
  retries: number;
  created_at: string;
  paid_at: string | null;
}
