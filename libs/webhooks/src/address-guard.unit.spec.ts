import { isForbiddenAddress, refusedAddress, refusedUrl } from './address-guard';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888'])(
    'allows the public address %s',
    (address) => expect(isForbiddenAddress(address)).toBe(false),
  );
});

describe('refusedUrl', () => {
  const strict = { allowPrivateNetworks: false };
  const local = { allowPrivateNetworks: true };

  it('takes https always, http only where private networks are allowed', () => {
    expect(refusedUrl('https://merchant.example/hook', strict)).toBeUndefined();
    expect(refusedUrl('http://merchant.example/hook', strict)).toBe('the webhook URL must use https (got http)');
    expect(refusedUrl('http://127.0.0.1:9000/hook', local)).toBeUndefined();
  });

  it('refuses other schemes and what is not a URL', () => {
    expect(refusedUrl('ftp://merchant.example/', local)).toBe('the webhook URL must use https (got ftp)');
    expect(refusedUrl('file:///etc/passwd', local)).toBe('the webhook URL must use https (got file)');
    expect(refusedUrl('not a url', local)).toBe('the webhook URL is not a valid URL');
  });
});

describe('refusedAddress', () => {
  it('names the address it refuses, and refuses nothing where private networks are allowed', () => {
    expect(refusedAddress('10.0.0.5', { allowPrivateNetworks: false })).toBe('the webhook host resolves to a private or reserved address (10.0.0.5)');
    expect(refusedAddress('10.0.0.5', { allowPrivateNetworks: true })).toBeUndefined();
    expect(refusedAddress('8.8.4.4', { allowPrivateNetworks: false })).toBeUndefined();
  });
});
