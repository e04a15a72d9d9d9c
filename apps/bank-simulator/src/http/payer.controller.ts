import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { CobCompleta, CobRCompleta, Devolucao, Pagamento, RecCompleta, SolicRecCompleta } from '@pixauto/bank';
import { SimulatedBank } from '../simulated-bank';
import { BankClient } from './bank-client.decorator';

/** Ours, not the BCB's: the payer and the payer's bank, for local runs, tests and the sandbox (README "/sim"). */
@Controller('sim')
export class PayerController {
  constructor(private readonly bank: SimulatedBank) {}

  @Post('rec/:idRec/authorize')
  @HttpCode(200)
  authorize(@BankClient() client: string, @Param('idRec') idRec: string): Promise<RecCompleta> {
    return this.bank.authorizeRecurrence(client, idRec);
  }

  @Post('rec/:idRec/refuse')
  @HttpCode(200)
  refuse(@BankClient() client: string, @Param('idRec') idRec: string): Promise<RecCompleta> {
    return this.bank.refuseRecurrence(client, idRec);
  }

  @Post('solicrec/:idSolicRec/answer')
  @HttpCode(200)
  answer(@BankClient() client: string, @Param('idSolicRec') id: string, @Body() body: unknown): Promise<SolicRecCompleta> {
    return this.bank.answerSolicitation(client, id, body);
  }

  @Post('cob/:txid/pay')
  @HttpCode(200)
  pay(@BankClient() client: string, @Param('txid') txid: string): Promise<CobCompleta> {
    return this.bank.payImmediateCharge(client, txid);
  }

  @Post('cobr/:txid/pay')
  @HttpCode(200)
  payRecurringCharge(@BankClient() client: string, @Param('txid') txid: string): Promise<CobRCompleta> {
    return this.bank.payRecurringCharge(client, txid);
  }

  @Post('cobr/:txid/fail')
  @HttpCode(200)
  failRecurringCharge(@BankClient() client: string, @Param('txid') txid: string): Promise<CobRCompleta> {
    return this.bank.failRecurringCharge(client, txid);
  }

  /** The bank liquidates a refund now (DEVOLVIDO): the receipt exists from then on. */
  @Post('pix/:e2eid/devolucao/:id/settle')
  @HttpCode(200)
  settleRefund(@BankClient() client: string, @Param('e2eid') e2eid: string, @Param('id') id: string): Promise<Devolucao> {
    return this.bank.settleRefund(client, e2eid, id);
  }

  /** The receiving bank sends (part of) a completed payout back: {valor?, id?}. */
  @Post('pagamentos/:idEnvio/devolucao')
  @HttpCode(200)
  returnPayout(@BankClient() client: string, @Param('idEnvio') idEnvio: string, @Body() body: unknown): Promise<Pagamento> {
    return this.bank.returnPayout(client, idEnvio, body);
  }

  /** The receiving side settles (or holds) a payout: {status, motivo?}. */
  @Post('pagamentos/:idEnvio/status')
  @HttpCode(200)
  setPayoutStatus(@BankClient() client: string, @Param('idEnvio') idEnvio: string, @Body() body: unknown): Promise<Pagamento> {
    return this.bank.setPayoutStatus(client, idEnvio, body);
  }
}
