import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Redis } from 'ioredis';
import { SecretBox } from '@pixauto/secrets';
import { ApiKeysController } from './api-keys.controller';
import { consoleConfig } from './console.config';
import { DocumentsController } from './documents.controller';
import { Gateway } from './gateway';
import { MerchantApiController } from './merchant-api.controller';
import { RequestLogController } from './request-log.controller';
import { PasswordController } from './password.controller';
import { SessionController } from './session.controller';
import { SessionGuard } from './session.guard';
import { Sessions } from './sessions';
import { SignInLimiter } from './sign-in-limiter';
import { TeamController } from './team.controller';
import { AuditLogController } from './audit-log.controller';
import { CONSOLE_CONFIG, REDIS } from './tokens';
import { WebhookSecretController } from './webhook-secret.controller';

export const config = consoleConfig();

/** The console server: sessions in Redis, the gateway behind it; no database of its own. */
@Module({
  controllers: [
    SessionController,
    MerchantApiController,
    ApiKeysController,
    DocumentsController,
    WebhookSecretController,
    RequestLogController,
    TeamController,
    AuditLogController,
    PasswordController,
  ],
  providers: [
    { provide: CONSOLE_CONFIG, useValue: config },
    { provide: REDIS, useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: 2, commandTimeout: 1000 }) },
    { provide: Sessions, inject: [REDIS], useFactory: (redis: Redis) => new Sessions(redis, config.sessionIdleSeconds, config.sessionMaxSeconds) },
    { provide: SignInLimiter, inject: [REDIS], useFactory: (redis: Redis) => new SignInLimiter(redis) },
    { provide: Gateway, inject: [REDIS], useFactory: (redis: Redis) => new Gateway(config, redis, SecretBox.fromEnvironment()) },
    { provide: APP_GUARD, useClass: SessionGuard },
  ],
  exports: [REDIS],
})
export class ConsoleModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
