import { Tenant } from './tenant';

/**
 * Gateway → service calls travel as NestJS TCP messages (chosen by measurement, README "Performance").
 * The request carries the authenticated tenant; the reply is HTTP-shaped, so the gateway passes it on untouched.
 */
export interface ServiceRequest {
  tenant: Tenant;
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
}

export interface ServiceReply {
  status: number;
  body?: unknown;
}

export const reply = (body: unknown, status = 200): ServiceReply => ({ status, body });

/** Message patterns, one per operation, named <service>.<operation>. */
export const Patterns = {
  limits: { set: 'limits.set', get: 'limits.get' },
} as const;
