/** A small HTTP client for the tests: JSON in, status and parsed JSON out. */
export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field in the tests
}

export async function call(
  port: number,
  method: string,
  path: string,
  options: { key?: string; auth?: string; json?: unknown; raw?: string | Buffer; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.authorization = options.key;
  if (options.auth !== undefined) headers.authorization = options.auth;
  const body = options.json !== undefined ? JSON.stringify(options.json) : options.raw;
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
