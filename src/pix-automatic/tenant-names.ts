import { Injectable } from '@nestjs/common';
import { TenantsRepository } from '../tenants/tenants.repository';

const TTL_MS = 60_000;

/** The receiver's name the payer sees at their bank; tenant names change rarely, so they are cached a minute. */
@Injectable()
export class TenantNames {
  private readonly cache = new Map<string, { name: string; at: number }>();

  constructor(private readonly tenants: TenantsRepository) {}

  async nameOf(tenantId: string): Promise<string> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.name;
    const t = await this.tenants.findById(tenantId);
    const name = t?.name ?? tenantId;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tenantId, { name, at: Date.now() });
    return name;
  }
}
