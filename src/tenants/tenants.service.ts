import { Injectable } from '@nestjs/common';
import { normalizeCidr } from '../../kernel/common/cidr';
import { Page, page } from '../../kernel/platform/pagination/pagination';
import { CreateTenantDto, TenantDto, UpdateTenantDto } from './dto/tenant.dto';
import { TenantEntity } from './tenant.entity';
import { TenantErrors } from './tenants.errors';
import { TenantsRepository } from './tenants.repository';

export function toTenantDto(t: TenantEntity): TenantDto {
  return {
    tenantId: t.id,
    name: t.name,
    allowedCidrs: t.allowedCidrs,
    rateLimitPerMinute: t.rateLimitPerMinute,
    status: t.status,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

@Injectable()
export class TenantsService {
  constructor(private readonly repo: TenantsRepository) {}

  async create(dto: CreateTenantDto): Promise<TenantDto> {
    const t = await this.repo.create({
      name: dto.name.trim(),
      allowedCidrs: normalizeAll(dto.allowedCidrs),
      rateLimitPerMinute: dto.rateLimitPerMinute ?? 100,
    });
    return toTenantDto(t);
  }

  async get(id: string): Promise<TenantDto> {
    const t = await this.repo.findById(id);
    if (!t) throw TenantErrors.error('tenant_not_found', `Tenant ${id} does not exist`);
    return toTenantDto(t);
  }

  async list(limit: number, offset: number): Promise<Page<TenantDto>> {
    const [rows, total] = await this.repo.list(limit, offset);
    return page(rows.map(toTenantDto), total, { limit, offset });
  }

  async update(id: string, dto: UpdateTenantDto): Promise<TenantDto> {
    const t = await this.repo.update(id, {
      ...(dto.name !== undefined ? { name: dto.name.trim() } : {}),
      ...(dto.allowedCidrs !== undefined ? { allowedCidrs: normalizeAll(dto.allowedCidrs) } : {}),
      ...(dto.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: dto.rateLimitPerMinute } : {}),
      ...(dto.status !== undefined ? { status: dto.status } : {}),
    });
    if (!t) throw TenantErrors.error('tenant_not_found', `Tenant ${id} does not exist`);
    return toTenantDto(t);
  }
}

function normalizeAll(cidrs: string[]): string[] {
  const bad: { field: string; message: string }[] = [];
  const out = cidrs.map((c, i) => {
    const n = normalizeCidr(c);
    if (!n) bad.push({ field: `allowedCidrs[${i}]`, message: `"${c}" is not an IPv4/IPv6 address or CIDR` });
    return n ?? '';
  });
  if (bad.length) throw TenantErrors.error('invalid_cidr', 'allowedCidrs has entries that are not CIDRs', { details: bad });
  return [...new Set(out)];
}
