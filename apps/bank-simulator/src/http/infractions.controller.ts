import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import type { Infracao } from '@pixauto/bank';
import { SimulatedBank } from '../simulated-bank';
import { BankClient } from './bank-client.decorator';

// Infractions (MED) on the Pix a client received: the bank's own API, not the BCB's (README "Infractions").

@Controller('infracoes')
export class InfractionsController {
  constructor(private readonly bank: SimulatedBank) {}

  @Get(':id')
  get(@BankClient() client: string, @Param('id') id: string): Promise<Infracao> {
    return this.bank.getInfraction(client, id);
  }

  @Post(':id/defesa')
  @HttpCode(200)
  defend(@BankClient() client: string, @Param('id') id: string, @Body() body: unknown): Promise<Infracao> {
    return this.bank.defendInfraction(client, id, body);
  }
}

/** Ours: the payer's bank opens an infraction, and the banks conclude it. */
@Controller('sim/infracoes')
export class SimulatedInfractionsController {
  constructor(private readonly bank: SimulatedBank) {}

  @Post()
  open(@BankClient() client: string, @Body() body: unknown): Promise<Infracao> {
    return this.bank.openInfraction(client, body);
  }

  @Post(':id/concluir')
  @HttpCode(200)
  conclude(@BankClient() client: string, @Param('id') id: string, @Body() body: unknown): Promise<Infracao> {
    return this.bank.concludeInfraction(client, id, body);
  }
}
