import { adminClient } from './admin';
import { sandboxClient } from './index';

/** A fetch that records the request and answers `answer`. */
function recording(status: number, answer: unknown) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, requests };
}

describe('the typed client', () => {
  it('sends the API key as Authorization, fills path parameters and reads the documented answers', async () => {
    const server = recording(404, { message: 'Recurrence not found' });
    const client = sandboxClient('http://127.0.0.1:3001', 'sk_sandbox_x', { fetch: server.fetch });
    const { data, error, response } = await client.GET('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path: { recurrence_id: 'r 1' } } });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(error).toEqual({ message: 'Recurrence not found' });
    expect(server.requests[0].url).toBe('http://127.0.0.1:3001/v2/automatic-pix/recurrences/r%201');
    expect(server.requests[0].headers.get('authorization')).toBe('sk_sandbox_x');
  });

  it('sends the admin token as a Bearer and the body as JSON', async () => {
    const server = recording(201, { account_id: 'a1' });
    const { data } = await adminClient('http://127.0.0.1:3002', 'tok', { fetch: server.fetch }).POST('/admin/accounts', { body: { name: 'Loja' } });
    expect(data?.account_id).toBe('a1');
    expect(server.requests[0].headers.get('authorization')).toBe('Bearer tok');
    expect(await server.requests[0].json()).toEqual({ name: 'Loja' });
  });
});
