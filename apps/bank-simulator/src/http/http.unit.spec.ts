import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ProblemException, Problems } from '../domain/problems';
import { callbackUrl } from '../webhook-notifier';
import { clientOf } from './bank-client.decorator';
import { problemOf } from './problem.filter';

describe('clientOf', () => {
  it('is the same client for the same token, another for another token', () => {
    expect(clientOf('Bearer abc')).toBe(clientOf('bearer abc '));
    expect(clientOf('Bearer abc')).not.toBe(clientOf('Bearer abd'));
    expect(clientOf('Bearer abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([undefined, '', 'abc', 'Basic abc', 'Bearer '])('refuses %p with AcessoNegado', (header) => {
    expect(() => clientOf(header)).toThrow(ProblemException);
  });
});

describe('problemOf', () => {
  it('answers our problems as they are and fastify refusals as BCB problems', () => {
    expect(problemOf(new ProblemException(Problems.recNotFound()))).toEqual(Problems.recNotFound());
    expect(problemOf(new NotFoundException())).toMatchObject({ status: 404, type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado' });
    expect(problemOf(new BadRequestException())).toMatchObject({ status: 400, type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida' });
    expect(problemOf(new PayloadTooLargeException())).toMatchObject({ status: 400 });
    expect(problemOf(new Error('boom'))).toMatchObject({ status: 500, type: 'https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor' });
  });
});

describe('callbackUrl', () => {
  it('appends /rec to the configured URL without doubling the slash', () => {
    expect(callbackUrl('https://usuario.recebedor.com/api/webhookrec/')).toBe('https://usuario.recebedor.com/api/webhookrec/rec');
    expect(callbackUrl('http://127.0.0.1:3000/hooks')).toBe('http://127.0.0.1:3000/hooks/rec');
  });
});
