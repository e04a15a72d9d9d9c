import { Controller, Get } from '@nestjs/common';
import { CONSOLE_DOCUMENT } from './openapi';
import { WithoutSession } from './session.guard';

@Controller('console/v1')
export class DocumentsController {
  @Get('openapi.json')
  @WithoutSession()
  document(): typeof CONSOLE_DOCUMENT {
    return CONSOLE_DOCUMENT;
  }
}
