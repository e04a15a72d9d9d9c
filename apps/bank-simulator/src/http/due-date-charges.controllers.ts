import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import type { CobVCompleta } from '@pixauto/bank';
import { SimulatedDueDateCharges } from '../simulated-due-date-charges';
import { BankClient } from './bank-client.decorator';

// BCB API Pix /cobv, the payload at a due-date charge's location, and the payer paying one (/sim). Wiring only.

@Controller('cobv')
export class DueDateChargesController {
  constructor(private readonly charges: SimulatedDueDateCharges) {}

  @Put(':txid')
  @HttpCode(201)
  put(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobVCompleta> {
    return this.charges.put(client, txid, body);
  }

  @Get(':txid')
  get(@BankClient() client: string, @Param('txid') txid: string): Promise<CobVCompleta> {
    return this.charges.get(client, txid);
  }

  @Patch(':txid')
  revise(@BankClient() client: string, @Param('txid') txid: string, @Body() body: unknown): Promise<CobVCompleta> {
    return this.charges.revise(client, txid, body);
  }
}

/**
 * GET /qr/v2/cobv/{pixUrlAccessToken}: open to anyone holding the location. The BCB answers a JWS signed by the
 * receiver's PSP; the simulator has no PSP certificate, so its JWS is unsecured (alg "none"): header.payload. with an
 * empty signature, the payload being the CobVPayload.
 */
@Controller('qr/v2/cobv')
export class DueDateChargePayloadController {
  constructor(private readonly charges: SimulatedDueDateCharges) {}

  @Get(':token')
  @Header('content-type', 'application/jose')
  async payload(@Param('token') token: string, @Query('DPP') dpp?: string): Promise<string> {
    const payload = await this.charges.payload(token, typeof dpp === 'string' ? dpp : undefined);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${part({ alg: 'none', typ: 'JWS' })}.${part(payload)}.`;
  }
}

@Controller('sim/cobv')
export class DueDateChargePayerController {
  constructor(private readonly charges: SimulatedDueDateCharges) {}

  @Post(':txid/pay')
  @HttpCode(200)
  pay(@BankClient() client: string, @Param('txid') txid: string): Promise<CobVCompleta> {
    return this.charges.pay(client, txid);
  }
}
