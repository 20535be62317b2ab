/**
 * MetalLB's address allocation (controller/allocator): named pools of IPv4 addresses (CIDRs or
 * `first-last` ranges), each Service holding one address, the lowest free one of the first pool
 * with room unless it names a pool (annotation `metallb.universe.tf/address-pool`) or an address
 * (`spec.loadBalancerIP`). Errors are MetalLB's texts, which its `AllocationFailed` Event carries.
 * The default pool is TEST-NET-1 (192.0.2.0/24, RFC 5737): documentation addresses, routed nowhere.
 */

/** A named pool, as a MetalLB `IPAddressPool`. */
export interface AddressPool {
  /** The pool's name (`metallb.universe.tf/address-pool` picks it). */
  name: string;
  /** CIDRs (`192.0.2.0/28`) or ranges (`192.0.2.10-192.0.2.20`). At most 65536 addresses in all. */
  addresses: string[];
  /** Whether Services that name no pool get addresses from it (default true). */
  autoAssign?: boolean;
}

/** The cluster's default pool: TEST-NET-1. */
export const DEFAULT_POOLS: AddressPool[] = [{ name: 'default', addresses: ['192.0.2.0/24'] }];

const toNumber = (ip: string): number => {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`address pool: "${ip}" is not an IPv4 address`);
  }
  return parts.reduce((n, p) => n * 256 + p, 0);
};
const toIp = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** Every address of one pool entry, in order. */
export function expandAddresses(entry: string): string[] {
  let first: number;
  let last: number;
  if (entry.includes('/')) {
    const [ip, bits] = entry.split('/');
    const size = 2 ** (32 - Number(bits));
    if (!Number.isInteger(size) || Number(bits) < 16) throw new Error(`address pool: "${entry}" is not a CIDR of /16 to /32`);
    first = Math.floor(toNumber(ip!) / size) * size;
    last = first + size - 1;
  } else {
    const [a, b] = entry.split('-');
    first = toNumber(a!.trim());
    last = b === undefined ? first : toNumber(b.trim());
    if (last < first || last - first >= 65536) throw new Error(`address pool: "${entry}" is not a range of up to 65536 addresses`);
  }
  return Array.from({ length: last - first + 1 }, (_, i) => toIp(first + i));
}

/** What a Service asks for. */
export interface AllocationRequest {
  /** The pool it names, if any. */
  pool?: string;
  /** The address it names (`spec.loadBalancerIP`), if any. */
  ip?: string;
}

/** Addresses held by Service key (`namespace/name`). */
export class Allocator {
  private readonly pools: { name: string; autoAssign: boolean; ips: string[] }[];
  private readonly owner = new Map<string, string>();
  private readonly byKey = new Map<string, string>();

  constructor(pools: AddressPool[]) {
    this.pools = pools.map((p) => ({ name: p.name, autoAssign: p.autoAssign ?? true, ips: p.addresses.flatMap(expandAddresses) }));
  }

  /** The address `key` holds. */
  assigned(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** Takes `ip` for `key` when it is in a pool and free (a restart re-learning what it assigned); true when held. */
  adopt(key: string, ip: string): boolean {
    if (this.byKey.get(key) === ip) return true;
    if (this.owner.has(ip) || !this.pools.some((p) => p.ips.includes(ip))) return false;
    this.release(key);
    this.take(key, ip);
    return true;
  }

  /** An address for `key`, or MetalLB's error text. */
  allocate(key: string, want: AllocationRequest): { ip: string } | { error: string } {
    const held = this.byKey.get(key);
    if (held && this.fits(held, want)) return { ip: held };
    if (want.ip) {
      const user = this.owner.get(want.ip);
      if (user && user !== key) return { error: `can't change sharing key for "${key}", address also in use by ${user}` };
      if (!this.pools.some((p) => (!want.pool || p.name === want.pool) && p.ips.includes(want.ip!))) {
        return { error: `["${want.ip}"] is not allowed in config` };
      }
      return this.takeNew(key, want.ip);
    }
    if (want.pool) {
      const pool = this.pools.find((p) => p.name === want.pool);
      if (!pool) return { error: `unknown pool "${want.pool}"` };
      const ip = pool.ips.find((a) => !this.owner.has(a));
      return ip ? this.takeNew(key, ip) : { error: `no available IPs in pool "${want.pool}"` };
    }
    for (const pool of this.pools.filter((p) => p.autoAssign)) {
      const ip = pool.ips.find((a) => !this.owner.has(a));
      if (ip) return this.takeNew(key, ip);
    }
    return { error: 'no available IPs' };
  }

  /** Frees what `key` holds; true when it held an address. */
  release(key: string): boolean {
    const ip = this.byKey.get(key);
    if (ip === undefined) return false;
    this.byKey.delete(key);
    this.owner.delete(ip);
    return true;
  }

  private fits(ip: string, want: AllocationRequest): boolean {
    if (want.ip) return want.ip === ip;
    return !want.pool || this.pools.some((p) => p.name === want.pool && p.ips.includes(ip));
  }

  private takeNew(key: string, ip: string): { ip: string } {
    this.release(key);
    this.take(key, ip);
    return { ip };
  }

  private take(key: string, ip: string): void {
    this.owner.set(ip, key);
    this.byKey.set(key, ip);
  }
}
