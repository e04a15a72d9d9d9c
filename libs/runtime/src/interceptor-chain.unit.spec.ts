import { AsyncLocalStorage } from 'node:async_hooks';
import { CallHandler, ExecutionContext } from '@nestjs/common';
import { finalize, firstValueFrom, map, Observable, of } from 'rxjs';
import { InterceptorChain, SyncInterceptor } from './interceptor-chain';

const context = {} as ExecutionContext;
const store = new AsyncLocalStorage<string[]>();

/** An interceptor that notes its name, calls the next inside a context naming it, and tags the answer. */
const named = (name: string, seen: string[]): SyncInterceptor => ({
  intercept: (_context, next) => {
    seen.push(name);
    return store.run([...(store.getStore() ?? []), name], () => next.handle()).pipe(map((answer) => `${name}(${String(answer)})`));
  },
});

/** Nest's last hop: the handler, called where the innermost interceptor asks for it; answers the contexts it runs in. */
const handler = (calls: string[][]): CallHandler => ({
  handle: () => {
    const opened = store.getStore() ?? [];
    calls.push(opened);
    return of(opened.join('>'));
  },
});

describe('InterceptorChain', () => {
  it('runs the interceptors outermost first, the handler inside every context they opened, the answer back out through each', async () => {
    const seen: string[] = [];
    const calls: string[][] = [];
    const chain = new InterceptorChain([named('observe', seen), named('admit', seen), named('writes', seen)]);
    expect(await firstValueFrom(chain.intercept(context, handler(calls)))).toBe('observe(admit(writes(observe>admit>writes)))');
    expect(seen).toEqual(['observe', 'admit', 'writes']);
    expect(calls).toEqual([['observe', 'admit', 'writes']]);
  });

  it('an interceptor that throws is an error the outer ones see, as under Nest; the handler is not called', async () => {
    const calls: string[][] = [];
    const finalized: string[] = [];
    const outer: SyncInterceptor = { intercept: (_context, next) => next.handle().pipe(finalize(() => finalized.push('outer'))) };
    const refusing: SyncInterceptor = {
      intercept: () => {
        throw new Error('past its deadline');
      },
    };
    await expect(firstValueFrom(new InterceptorChain([outer, refusing]).intercept(context, handler(calls)))).rejects.toThrow('past its deadline');
    expect(finalized).toEqual(['outer']);
    expect(calls).toEqual([]);
  });

  it('an interceptor that answers by itself stops the chain there', async () => {
    const calls: string[][] = [];
    const seen: string[] = [];
    const closed: SyncInterceptor = { intercept: (): Observable<unknown> => of('refused: draining') };
    const chain = new InterceptorChain([named('observe', seen), closed, named('writes', seen)]);
    expect(await firstValueFrom(chain.intercept(context, handler(calls)))).toBe('observe(refused: draining)');
    expect(seen).toEqual(['observe']);
    expect(calls).toEqual([]);
  });
});
