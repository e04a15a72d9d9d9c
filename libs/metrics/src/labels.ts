import { CallOutcome } from './metrics';

/**
 * The operation of a BCB API Pix call, as a label: its path with every identifier replaced by `:id`, so that the
 * label has one value per operation and not per charge. The API's paths alternate a collection and one of its
 * identifiers (`/pix/{e2eid}/devolucao/{id}`), after an action name at the end (`/sim/cobr/{txid}/pay`) and the
 * simulator's `/sim` in front.
 */
export function bankOperationOf(method: string, path: string): string {
  const segments = path
    .split('?')[0]
    .split('/')
    .filter((segment) => segment !== '');
  const start = segments[0] === 'sim' ? 1 : 0;
  const template = segments.map((segment, index) => (index >= start && (index - start) % 2 === 1 ? ':id' : segment));
  return `${method} /${template.join('/')}`;
}

/** How a call that got an HTTP answer ended. */
export const outcomeOfStatus = (status: number): CallOutcome => (status >= 200 && status < 300 ? 'ok' : status >= 400 && status < 500 ? 'refused' : 'failed');
