import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Allocator, expandAddresses } from '../../../local-cluster/controllers/address-pool.js';

describe('the simulated load balancer address pools (MetalLB allocation)', () => {
  it('expands CIDRs and ranges, and refuses what is not one', () => {
    assert.deepEqual(expandAddresses('192.0.2.4/30'), ['192.0.2.4', '192.0.2.5', '192.0.2.6', '192.0.2.7']);
    assert.deepEqual(expandAddresses('198.51.100.254-198.51.101.1'), ['198.51.100.254', '198.51.100.255', '198.51.101.0', '198.51.101.1']);
    assert.deepEqual(expandAddresses('203.0.113.9'), ['203.0.113.9']);
    assert.throws(() => expandAddresses('10.0.0.0/8'), /not a CIDR of \/16 to \/32/);
    assert.throws(() => expandAddresses('192.0.2.300'), /not an IPv4 address/);
  });

  it("allocates the lowest free address, by pool or address, with MetalLB's errors", () => {
    const a = new Allocator([
      { name: 'default', addresses: ['192.0.2.1-192.0.2.2'] },
      { name: 'reserved', addresses: ['198.51.100.1/32'], autoAssign: false },
    ]);
    assert.deepEqual(a.allocate('ns/a', {}), { ip: '192.0.2.1' });
    assert.deepEqual(a.allocate('ns/a', {}), { ip: '192.0.2.1' }, 'a Service keeps its address');
    assert.deepEqual(a.allocate('ns/b', {}), { ip: '192.0.2.2' });
    assert.deepEqual(a.allocate('ns/c', {}), { error: 'no available IPs' }, 'an autoAssign: false pool is not used unasked');
    assert.deepEqual(a.allocate('ns/c', { pool: 'reserved' }), { ip: '198.51.100.1' });
    assert.deepEqual(a.allocate('ns/d', { pool: 'reserved' }), { error: 'no available IPs in pool "reserved"' });
    assert.deepEqual(a.allocate('ns/d', { pool: 'nope' }), { error: 'unknown pool "nope"' });
    assert.deepEqual(a.allocate('ns/d', { ip: '203.0.113.1' }), { error: '["203.0.113.1"] is not allowed in config' });
    assert.deepEqual(a.allocate('ns/d', { ip: '192.0.2.1' }), {
      error: `can't change sharing key for "ns/d", address also in use by ns/a`,
    });
    assert.equal(a.release('ns/a'), true);
    assert.equal(a.release('ns/a'), false);
    assert.deepEqual(a.allocate('ns/d', {}), { ip: '192.0.2.1' });
  });

  it('adopts an address shown in a status only when it is in a pool and free', () => {
    const a = new Allocator([{ name: 'default', addresses: ['192.0.2.1-192.0.2.2'] }]);
    assert.equal(a.adopt('ns/web', '192.0.2.1'), true);
    assert.equal(a.adopt('ns/other', '192.0.2.1'), false);
    assert.equal(a.adopt('ns/other', '10.1.1.1'), false);
    assert.deepEqual(a.allocate('ns/api', {}), { ip: '192.0.2.2' });
  });
});
