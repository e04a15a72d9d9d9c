import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import type {
  CobCompleta,
  CobRCompleta,
  Devolucao,
  LocRec,
  PixRecebido,
  RecCompleta,
  RecGerada,
  SolicRecCompleta,
  WebhookPix,
  WebhookRec,
} from '@pixauto/bank';
import { SimulatedBank } from '../simulated-bank';
import { BankClient } from './bank-client.decorator';

// The BCB API Pix endpoints the platform uses (libs/bank/reference/bcb-api-pix-openapi-2.9.0.yaml), with the
// spec's success codes. Wiring only: the rules are in domain/, the transactions in SimulatedBank.

@Controller('locrec')
export class RecurrenceLocationsController {
  constructor(private readonly bank: SimulatedBank) {}

  @Post()
  create(@BankClient() client: string): Promise<LocRec> {
    return this.bank.createRecurrenceLocation(client);
  }

  @Get(':id')
  get(@BankClient() client: string, @Param('id') id: string): Promise<LocRec> {
    return this.bank.getRecurrenceLocation(client, id);
  }
}

@Controller('rec')
export class RecurrencesController {
  constructor(private readonly bank: SimulatedBank) {}

  @Post()
  create(@BankClient() client: string, @Body() body: unknown): Promise<RecGerada> {
    return this.bank.createRecurrence(client, body);
  }

  @Get(':idRec')
  get(@BankClient() client: string, @Param('idRec') idRec: string, @Query('txid') txid?: string): Promise<RecCompleta> {
    return this.bank.getRecurrence(client, idRec, typeof txid === 'string' ? txid : undefined);
  }

  @Patch(':idRec')
  revise(@BankClient() client: string, @Param('idRec') idRec: string, @Body() body: unknown): Promise<RecGerada> {
    return this.bank.reviseRecurrence(client, idRec, body);
  }
}

@Controller('solicrec')
export class SolicitationsController {
  constructor(private readonly bank: SimulatedBank) {}

  @Post()
  create(@BankClient() client: string, @Body() body: unknown): Promise<SolicRecCompleta> {
    return this.bank.createSolicitation(client, body);
  }

  @Get(':idSolicRec')
  get(@BankClient() client: string, @Param('idSolicRec') id: string): Promise<SolicRecCompleta> {
    return this.bank.getSolicitation(client, id);
  }

  /** The spec answers this PATCH with 201 ("Solicitação de recorrência atualizada"). */
  @Patch(':idSolicRec')
  @HttpCode(201)
  revise(@BankClient() client: string, @Param('idSolicRec') id: string, @Body() body: unknown): Promise<SolicRecCompleta> {
    return this.bank.reviseSolicitation(client, id, body);
  }
}

@Controller('cob')
export class ImmediateChargesController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put(':txid')
  @HttpCode(201)
  put(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobCompleta> {
    return this.bank.putImmediateCharge(client, txid, body);
  }

  @Get(':txid')
  get(@BankClient() client: string, @Param('txid') txid: string): Promise<CobCompleta> {
    return this.bank.getImmediateCharge(client, txid);
  }

  /** CobRevisada: only {status: REMOVIDA_PELO_USUARIO_RECEBEDOR} here. */
  @Patch(':txid')
  revise(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobCompleta> {
    return this.bank.removeImmediateCharge(client, txid, body);
  }
}

@Controller('pix')
export class ReceivedPixController {
  constructor(private readonly bank: SimulatedBank) {}

  @Get(':e2eid')
  get(@BankClient() client: string, @Param('e2eid') e2eid: string): Promise<PixRecebido> {
    return this.bank.getReceivedPix(client, e2eid);
  }

  @Put(':e2eid/devolucao/:id')
  @HttpCode(201)
  requestRefund(@BankClient() client: string, @Param('e2eid') e2eid: string, @Param('id') id: string, @Body() body: unknown): Promise<Devolucao> {
    return this.bank.requestRefund(client, e2eid, id, body);
  }

  @Get(':e2eid/devolucao/:id')
  getRefund(@BankClient() client: string, @Param('e2eid') e2eid: string, @Param('id') id: string): Promise<Devolucao> {
    return this.bank.getRefund(client, e2eid, id);
  }
}

/** The Pix webhook, per DICT key: the bank POSTs {webhookUrl}/pix when charges on the key are paid. */
@Controller('webhook')
export class PixWebhookController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put(':chave')
  @HttpCode(200)
  async configure(@BankClient() client: string, @Param('chave') chave: string, @Body() body: unknown): Promise<void> {
    await this.bank.configurePixWebhook(client, chave, body);
  }

  @Get(':chave')
  get(@BankClient() client: string, @Param('chave') chave: string): Promise<WebhookPix> {
    return this.bank.getPixWebhook(client, chave);
  }

  @Delete(':chave')
  @HttpCode(204)
  async remove(@BankClient() client: string, @Param('chave') chave: string): Promise<void> {
    await this.bank.deletePixWebhook(client, chave);
  }
}

/** PUT and PATCH answer the whole charge (CobRGerada plus its history and attempts, as the spec's examples do). */
@Controller('cobr')
export class RecurringChargesController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put(':txid')
  @HttpCode(201)
  put(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobRCompleta> {
    return this.bank.createRecurringCharge(client, txid, body);
  }

  @Get(':txid')
  get(@BankClient() client: string, @Param('txid') txid: string): Promise<CobRCompleta> {
    return this.bank.getRecurringCharge(client, txid);
  }

  @Patch(':txid')
  revise(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobRCompleta> {
    return this.bank.reviseRecurringCharge(client, txid, body);
  }

  @Post(':txid/retentativa/:data')
  @HttpCode(201)
  retry(@BankClient() client: string, @Param('txid') txid: string, @Param('data') data: string): Promise<CobRCompleta> {
    return this.bank.retryRecurringCharge(client, txid, data);
  }
}

@Controller('webhookrec')
export class RecurrenceWebhookController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put()
  @HttpCode(200)
  async configure(@BankClient() client: string, @Body() body: unknown): Promise<void> {
    await this.bank.configureWebhook('rec', client, body);
  }

  @Get()
  get(@BankClient() client: string): Promise<WebhookRec> {
    return this.bank.getWebhook('rec', client);
  }

  @Delete()
  @HttpCode(204)
  async remove(@BankClient() client: string): Promise<void> {
    await this.bank.deleteWebhook('rec', client);
  }
}

@Controller('webhookcobr')
export class RecurringChargeWebhookController {
  constructor(private readonly bank: SimulatedBank) {}

  @Put()
  @HttpCode(200)
  async configure(@BankClient() client: string, @Body() body: unknown): Promise<void> {
    await this.bank.configureWebhook('cobr', client, body);
  }

  @Get()
  get(@BankClient() client: string): Promise<WebhookRec> {
    return this.bank.getWebhook('cobr', client);
  }

  @Delete()
  @HttpCode(204)
  async remove(@BankClient() client: string): Promise<void> {
    await this.bank.deleteWebhook('cobr', client);
  }
}
