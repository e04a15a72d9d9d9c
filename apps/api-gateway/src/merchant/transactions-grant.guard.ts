import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Messages, refuse } from '@pixauto/errors';
import { AuthenticatedRequest } from './api-key.guard';

/**
 * Receipts need a key with access to transactions (`transactions: true`): any other is refused with 403 before
 * anything is read. Runs after the ApiKeyGuard (a global guard), so the request's grant is known.
 */
@Injectable()
export class TransactionsGrantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return true;
  }
}
