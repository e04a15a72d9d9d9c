import { isRead, mayAct } from './roles';

describe('console roles', () => {
  it.each([
    ['owner', 'production', true],
    ['owner', 'sandbox', true],
    ['developer', 'production', false],
    ['developer', 'sandbox', true],
    ['viewer', 'production', false],
    ['viewer', 'sandbox', false],
  ] as const)('%s acting in %s: %s', (role, environment, allowed) => {
    expect(mayAct(role, environment)).toBe(allowed);
  });

  it('lets everyone read', () => {
    expect(['GET', 'HEAD'].every(isRead)).toBe(true);
    expect(['POST', 'PATCH', 'PUT', 'DELETE'].some(isRead)).toBe(false);
  });
});
