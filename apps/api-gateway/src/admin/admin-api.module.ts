import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsAdmin, AuditLogReader, ConsoleUsers } from '@pixauto/accounts';
import { RequestLogReader } from '@pixauto/request-log';
import { Upstreams } from '../upstreams';
import { AdminController } from './admin.controller';
import { AdminTokenGuard } from './admin-token.guard';

/** The operator listener on ADMIN_PORT. */
@Module({})
export class AdminApiModule {
  static withToken(token: string, core: INestApplicationContext): DynamicModule {
    return {
      module: AdminApiModule,
      controllers: [AdminController],
      providers: [
        { provide: AccountsAdmin, useValue: core.get(AccountsAdmin) },
        { provide: ConsoleUsers, useValue: core.get(ConsoleUsers) },
        { provide: Upstreams, useValue: core.get(Upstreams) },
        { provide: RequestLogReader, useValue: core.get(RequestLogReader) },
        { provide: AuditLogReader, useValue: core.get(AuditLogReader) },
        { provide: APP_GUARD, useValue: new AdminTokenGuard(token) },
      ],
    };
  }
}
