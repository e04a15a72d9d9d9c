import { Body, Controller, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pagamento, WebhookPagamentos } from '@pixauto/bank';
import { SimulatedBank } from '../simulated-bank';
import { BankClient } from './bank-client.decorator';

// Payouts (cash-out): the simulator's own API, in the BCB's style, since the BCB API Pix has no payment initiation
// (README "Payouts"). Wiring only: the rules are in domain/payout.ts, the transactions in SimulatedBank.

@Controller('pagamentos')
export class PayoutsController {
  constructor(private readonly bank: SimulatedBank) {}

  /** 201 a new payout; 200 the existing one when the idEnvio is already the client's (idempotent). */
  @Put(':idEnvio')
  async put(
    @BankClient() client: string,
    @Param('idEnvio') idEnvio: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pagamento> {
    const { created, pagamento } = await this.bank.createPayout(client, idEnvio, body);
    reply.code(created ? 201 : 200);
    return pagamento;
  }

  @Get(':idEnvio')
  get(@BankClient() client: string, @Param('idEnvio') idEnvio: string): Promise<Pagamento> {
    return this.bank.getPayout(client, idEnvio);
  }
}

/** Where payouts' creation and status changes are pushed: {webhookUrl}/pagamentos, {pagamentos: [...]}. */
@Controller('webhookpagamentos')
export class PayoutWebhookController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put()
  @HttpCode(200)
  async configure(@BankClient() client: string, @Body() body: unknown): Promise<void> {
    await this.bank.configureWebhook('pagamentos', client, body);
  }

  @Get()
  get(@BankClient() client: string): Promise<WebhookPagamentos> {
    return this.bank.getWebhook('pagamentos', client);
  }

  @Delete()
  @HttpCode(204)
  async remove(@BankClient() client: string): Promise<void> {
    await this.bank.deleteWebhook('pagamentos', client);
  }
}
