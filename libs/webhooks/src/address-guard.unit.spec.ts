import { classifyAddress, isForbiddenAddress, refusedAddress, refusedUrl, STRICT_POLICY, Target, targetPolicyFrom } from './address-guard';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['0:0:0:0:0:ffff:169.254.169.254', 'link-local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'reserved'],
    ['::a9fe:a9fe', 'reserved'],
    ['::169.254.169.254', 'reserved'],
    ['64:ff9b::a9fe:a9fe', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['64:ff9b:1::a9fe:a9fe', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['192.169.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => expect(classifyAddress(address)).toBe(kind));

  it('forbids, with nothing allowed, everything but public addresses', () => {
    expect(['127.0.0.1', '169.254.169.254', '10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe'].filter(isForbiddenAddress)).toHaveLength(5);
    expect(isForbiddenAddress('1.1.1.1')).toBe(false);
  });
});

const https = (port = 443, environment: Target['environment'] = 'sandbox'): Target => ({ protocol: 'https:', port, environment });
const http = (port = 80, environment: Target['environment'] = 'sandbox'): Target => ({ protocol: 'http:', port, environment });
const REFUSED = 'the webhook host resolves to a private or reserved address';

describe('refusedAddress', () => {
  const development = targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'sandbox', WEBHOOK_RESERVED_PORTS: '3000-3002,4009' }, [4059]);
  const opened = targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'all', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '10.20.0.0/16,fd00:1::/64' });

  it('says what kind of address an internal name resolves to, never the address itself', () => {
    const internal = [
      '10.1.2.3',
      '172.16.9.8',
      '192.168.7.6',
      '100.64.3.2',
      'fd12:3456::7',
      '127.0.0.1',
      '::ffff:10.1.2.3',
      '169.254.169.254',
      '64:ff9b::a01:203',
    ];
    for (const policy of [STRICT_POLICY, development, opened]) {
      for (const address of [...internal, '8.8.8.8', '10.20.1.2']) {
        for (const target of [https(), https(8443, 'production'), http(8080), http(3002)]) {
          const reason = refusedAddress(address, target, policy);
          if (reason === undefined) continue;
          expect(reason).not.toContain(address);
          for (const part of address.split(/[.:]+/).filter((p) => p.length > 1)) expect(reason).not.toMatch(new RegExp(`\\b${part}\\b`));
        }
      }
    }
    expect(refusedAddress('10.1.2.3', https(), STRICT_POLICY)).toBe('the webhook host resolves to a private or reserved address');
  });

  it('with nothing set, reaches public https addresses only', () => {
    expect(refusedAddress('8.8.4.4', https(), STRICT_POLICY)).toBeUndefined();
    expect(refusedAddress('127.0.0.1', https(), STRICT_POLICY)).toBe(REFUSED);
    expect(refusedAddress('10.0.0.5', https(), STRICT_POLICY)).toBe(REFUSED);
  });

  it('reaches loopback, over http too, only for the environments allowed and not on a reserved port', () => {
    expect(refusedAddress('127.0.0.1', http(8080), development)).toBeUndefined();
    expect(refusedAddress('::1', https(8443), development)).toBeUndefined();
    expect(refusedAddress('127.0.0.1', http(8080, 'production'), development)).toBe(REFUSED);
    expect(refusedAddress('127.0.0.1', http(3002), development)).toBe("the webhook host resolves to loopback on port 3002, one of the platform's own");
    expect(refusedAddress('::ffff:127.0.0.1', http(4059), development)).toBe("the webhook host resolves to loopback on port 4059, one of the platform's own");
  });

  it('refuses link-local, metadata and reserved addresses in every mode, by IPv4, IPv6, IPv4-mapped and NAT64', () => {
    for (const policy of [STRICT_POLICY, development, opened]) {
      for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '0.0.0.0', '::']) {
        for (const target of [https(), https(8080, 'production'), http(8080)]) expect(refusedAddress(address, target, policy)).toBeDefined();
      }
    }
  });

  it('refuses private addresses unless an operator opened their network, and then over https only', () => {
    expect(refusedAddress('10.1.2.3', https(), development)).toBe(REFUSED);
    expect(refusedAddress('10.20.1.2', https(), opened)).toBeUndefined();
    expect(refusedAddress('::ffff:10.20.1.2', https(443, 'production'), opened)).toBeUndefined();
    expect(refusedAddress('fd00:1::5', https(), opened)).toBeUndefined();
    expect(refusedAddress('10.21.1.2', https(), opened)).toBe(REFUSED);
    expect(refusedAddress('10.20.1.2', http(), opened)).toBe('the webhook URL must use https unless its host is loopback');
  });

  it('holds plain http to loopback', () => {
    expect(refusedAddress('8.8.8.8', http(), development)).toBe('the webhook URL must use https unless its host is loopback');
  });
});

describe('refusedUrl', () => {
  const development = targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'sandbox' });

  it('takes https always, http only for the environments where loopback is allowed', () => {
    expect(refusedUrl('https://merchant.example/hook', 'production', STRICT_POLICY)).toBeUndefined();
    expect(refusedUrl('http://merchant.example/hook', 'sandbox', STRICT_POLICY)).toBe('the webhook URL must use https (got http)');
    expect(refusedUrl('http://127.0.0.1:9000/hook', 'sandbox', development)).toBeUndefined();
    expect(refusedUrl('http://127.0.0.1:9000/hook', 'production', development)).toBe('the webhook URL must use https (got http)');
  });

  it('refuses other schemes and what is not a URL', () => {
    expect(refusedUrl('ftp://merchant.example/', 'sandbox', development)).toBe('the webhook URL must use https (got ftp)');
    expect(refusedUrl('file:///etc/passwd', 'sandbox', development)).toBe('the webhook URL must use https (got file)');
    expect(refusedUrl('not a url', 'sandbox', development)).toBe('the webhook URL is not a valid URL');
  });
});

describe('targetPolicyFrom', () => {
  it('allows nothing when nothing is set', () => {
    const policy = targetPolicyFrom({});
    expect(policy.loopback).toEqual([]);
    expect(policy.reservedPorts.size).toBe(0);
    expect(policy.privateNetworks.rules).toEqual([]);
    expect(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }).loopback).toEqual([]);
  });

  it('reads loopback environments, ports and ranges of ports, and adds its own', () => {
    const policy = targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'sandbox', WEBHOOK_RESERVED_PORTS: '3000-3002, 4009' }, [4059]);
    expect(policy.loopback).toEqual(['sandbox']);
    expect([...policy.reservedPorts].sort()).toEqual([3000, 3001, 3002, 4009, 4059]);
    expect(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'all' }).loopback).toEqual(['sandbox', 'production']);
  });

  it('refuses to start on a value it does not understand, or a network outside the private ranges', () => {
    expect(() => targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'true' })).toThrow('WEBHOOK_ALLOW_LOOPBACK must be sandbox, all or unset (got true)');
    expect(() => targetPolicyFrom({ WEBHOOK_RESERVED_PORTS: '3000,http' })).toThrow('WEBHOOK_RESERVED_PORTS must list ports or ranges of ports (got http)');
    expect(() => targetPolicyFrom({ WEBHOOK_RESERVED_PORTS: '70000' })).toThrow(/got 70000/);
    for (const value of ['true', '169.254.0.0/16', '10.0.0.0/7', '127.0.0.0/8', '0.0.0.0/0', 'fe80::/10', '::/0', '10.0.0.0']) {
      expect(() => targetPolicyFrom({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: value })).toThrow(`WEBHOOK_ALLOW_PRIVATE_NETWORKS must list networks inside`);
    }
  });
});
