import { ServerTCP } from '@nestjs/microservices';

/**
 * NestJS's TCP server finds a message's handler by `JSON.parse`-ing its pattern first, for object patterns: every string
 * pattern (all of ours, `Patterns` in @pixauto/contracts) throws a SyntaxError there, caught, ~4% of a service's CPU per
 * message (a profile of limits-service under `GET /v2/limits`). A pattern that is a handler's route as it is goes
 * straight to it; any other takes Nest's way.
 */
export class ServiceTcpServer extends ServerTCP {
  protected override getRouteFromPattern(pattern: string): string {
    return this.messageHandlers.has(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }
}
