import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@pixauto/runtime';
import { SimulatorConfig } from './config';
import { ProblemFilter } from './http/problem.filter';
import { serveAtSimulatedNow } from './http/simulated-now.hook';
import { SimulatorModule } from './simulator.module';

/** The simulator as a Nest application, not yet listening (main.ts listens; tests listen on a free port). */
export async function createSimulatorApp(config: SimulatorConfig, options: { logger?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await createHttpApp(SimulatorModule.forRoot(config), options);
  // Every request runs at its x-simulated-now, when it sends one (SimulatedClock).
  serveAtSimulatedNow(app.getHttpAdapter().getInstance());
  // PROVIDER_A's OAuth2 token endpoint takes a form body (RFC 6749 §4.4.2).
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
  // Registered after the platform's filter, so it is the one that answers: the BCB's problem+json, not the merchant API's shapes.
  app.useGlobalFilters(new ProblemFilter());
  return app;
}
