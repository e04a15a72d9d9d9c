import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkProviderBRequest, ProviderATokens } from '../domain/provider-auth';
import { SimulatedBank } from '../simulated-bank';
import { SimulatedClock } from '../simulated-clock';

// The two receipt providers (docs/decisions/receipts.md), each with its own API, authentication and error shape: not
// the BCB API (no problem+json here). Both render a liquidated refund's receipt as a PDF; PROVIDER_C has no such API.

/** PROVIDER_A: OAuth2 client credentials; `GET /provider-a/v1/refunds/{rtrId}/receipt` answers the PDF bytes. */
@Controller('provider-a')
export class ProviderAController {
  private readonly tokens = new ProviderATokens();

  constructor(
    private readonly bank: SimulatedBank,
    private readonly clock: SimulatedClock,
  ) {}

  /** RFC 6749 §4.4: form body grant_type=client_credentials, the client by HTTP Basic (or client_id and client_secret in the form). */
  @Post('oauth/token')
  @HttpCode(200)
  token(@Body() form: Record<string, unknown> | undefined, @Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): void {
    const result = this.tokens.issue(form ?? {}, authorization, this.clock.realNow().getTime());
    void reply
      .status(result.ok ? 200 : result.status)
      .header('cache-control', 'no-store')
      .send(result.ok ? result.token : result.error);
  }

  @Get('v1/refunds/:rtrId/receipt')
  async refundReceipt(@Param('rtrId') rtrId: string, @Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const denied = this.tokens.check(authorization, this.clock.realNow().getTime());
    if (denied) return void reply.status(401).header('www-authenticate', 'Bearer error="invalid_token"').send(denied);
    const pdf = await this.bank.refundReceipt('PROVIDER_A', rtrId);
    if (!pdf) return void reply.status(404).send({ error: 'not_found', error_description: 'No settled refund with this identifier.' });
    void reply.status(200).type('application/pdf').header('content-disposition', `attachment; filename="devolucao-${rtrId}.pdf"`).send(pdf);
  }

  @Get('v1/payouts/:e2eId/receipt')
  async payoutReceipt(@Param('e2eId') e2eId: string, @Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const denied = this.tokens.check(authorization, this.clock.realNow().getTime());
    if (denied) return void reply.status(401).header('www-authenticate', 'Bearer error="invalid_token"').send(denied);
    const pdf = await this.bank.payoutReceipt('PROVIDER_A', e2eId);
    if (!pdf) return void reply.status(404).send({ error: 'not_found', error_description: 'No completed payout with this identifier.' });
    void reply.status(200).type('application/pdf').header('content-disposition', `attachment; filename="pix-${e2eId}.pdf"`).send(pdf);
  }
}

/** PROVIDER_B: an API key and an HMAC-SHA256 signature per request; the receipt comes as JSON, the PDF in base64. */
@Controller('provider-b')
export class ProviderBController {
  constructor(
    private readonly bank: SimulatedBank,
    private readonly clock: SimulatedClock,
  ) {}

  @Get('api/v2/refunds/:rtrId/receipt')
  async refundReceipt(@Param('rtrId') rtrId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const denied = checkProviderBRequest(request.headers, request.method, request.url.split('?')[0], this.clock.realNow().getTime());
    if (denied) return void reply.status(401).send({ status: 'error', ...denied });
    const pdf = await this.bank.refundReceipt('PROVIDER_B', rtrId);
    if (!pdf) return void reply.status(404).send({ status: 'error', code: 'RECEIPT_NOT_FOUND', message: 'There is no receipt for this refund yet.' });
    void reply.status(200).send({
      status: 'ok',
      receipt: { refund_id: rtrId, file_name: `devolucao-${rtrId}.pdf`, mime_type: 'application/pdf', content: pdf.toString('base64') },
    });
  }

  @Get('api/v2/payouts/:e2eId/receipt')
  async payoutReceipt(@Param('e2eId') e2eId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const denied = checkProviderBRequest(request.headers, request.method, request.url.split('?')[0], this.clock.realNow().getTime());
    if (denied) return void reply.status(401).send({ status: 'error', ...denied });
    const pdf = await this.bank.payoutReceipt('PROVIDER_B', e2eId);
    if (!pdf) return void reply.status(404).send({ status: 'error', code: 'RECEIPT_NOT_FOUND', message: 'There is no receipt for this payout.' });
    void reply
      .status(200)
      .send({ status: 'ok', receipt: { end_to_end_id: e2eId, file_name: `pix-${e2eId}.pdf`, mime_type: 'application/pdf', content: pdf.toString('base64') } });
  }
}
