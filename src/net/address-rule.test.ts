import { describe, expect, it } from 'vitest';
import { insideRange } from './address-rule.ts';

describe('insideRange: what an account connected by a link may not reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private network'],
    ['10.255.255.255', 'private network'],
    ['172.16.0.1', 'private network'],
    ['172.31.255.255', 'private network'],
    ['192.168.1.10', 'private network'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'documentation'],
    ['::7f00:1', 'IPv4-compatible'],
    // IPv4-mapped IPv6, in both spellings (a URL writes the second: [::ffff:7f00:1]).
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private network'],
    ['::ffff:192.168.0.1', 'private network'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private network'],
    ['2002:c0a8:0101::1', 'private network'],
    ['not-an-address', 'not an address'],
    ['1.2.3', 'not an address'],
    ['1::2::3', 'not an address'],
  ])('refuses %s (%s)', (address, words) => {
    expect(insideRange(address)).toContain(words);
  });

  it.each([
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::1.1.1.1',
    '2002:5db8:d822::1',
    'fe7f::1',
  ])('lets %s through (a public address)', (address) => {
    expect(insideRange(address)).toBeUndefined();
  });
});
