import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { TenantsRepository } from '../../tenants/tenants.repository';
import { FeeTable } from '../domain/fees';
import { CreateMerchantDto, MerchantDto, MerchantListDto } from '../dto/merchant.dto';
import { LinksConfig } from '../links.config';
import { LinkErrors, refusingFees } from '../links.errors';
import { feeTableFromApi, feeTableToApi } from './fee-table.mapper';
import { Merchant, MerchantsRepository } from './merchants.repository';

/** The sandbox gives every tenant these merchants on first use (ids derived from the tenant id). */
const SANDBOX_MERCHANTS = [
  { name: SANDBOX_RECEIVER.name, taxId: SANDBOX_RECEIVER.cnpj, isDefault: true }, // the sandbox's receiving account
  { name: 'Parceiro Entregas (sandbox)', taxId: '11444777000161', isDefault: false },
  { name: 'Parceiro Marketplace (sandbox)', taxId: '52998224725', isDefault: false },
];

/**
 * Merchants of a tenant. In sandbox mode three are created lazily on first use (idempotent:
 * deterministic ids, ON CONFLICT DO NOTHING); an operator adds more with the admin API.
 */
@Injectable()
export class MerchantsService {
  constructor(
    private readonly repo: MerchantsRepository,
    private readonly tenants: TenantsRepository,
    private readonly config: LinksConfig,
  ) {}

  async list(tenantId: string): Promise<MerchantListDto> {
    await this.ensureSeeded(tenantId);
    const items = (await this.repo.list(tenantId)).map((m) => this.toDto(m));
    return { total: items.length, items };
  }

  /** The merchant that owns the tenant's links. */
  async owner(tenantId: string): Promise<Merchant> {
    const m = (await this.repo.findDefault(tenantId)) ?? (await this.ensureSeeded(tenantId), await this.repo.findDefault(tenantId));
    if (!m) {
      throw LinkErrors.error(
        'merchant_not_found',
        'This tenant has no merchant yet; an operator adds one with POST /admin/tenants/{tenantId}/merchants',
      );
    }
    return m;
  }

  /** Checks that every id is one of the tenant's merchants. */
  async assertKnown(tenantId: string, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = new Set((await this.repo.find(tenantId, unique)).map((m) => m.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) {
      throw LinkErrors.error(
        'split_merchant_unknown',
        `Unknown merchant in splits: ${missing.join(', ')}; see GET /v1/acquiring/merchants`,
        {
          details: missing.map((id) => ({
            field: 'splits.merchantId',
            message: `${id} is not one of your merchants`,
            code: 'split_merchant_unknown',
          })),
        },
      );
    }
  }

  async get(tenantId: string, id: string): Promise<Merchant> {
    await this.ensureSeeded(tenantId);
    const m = (await this.repo.find(tenantId, [id]))[0];
    if (!m) throw LinkErrors.error('merchant_not_found', 'No such merchant for this tenant');
    return m;
  }

  feeTable(m: Merchant): FeeTable {
    return m.feeTable ?? this.config.defaultFeeTable;
  }

  async addByOperator(tenantId: string, dto: CreateMerchantDto): Promise<MerchantDto> {
    if (!(await this.tenants.findById(tenantId))) throw LinkErrors.error('tenant_not_found', 'No such tenant');
    const fees = dto.fees;
    const feeTable: FeeTable | null = fees ? refusingFees('fees', () => feeTableFromApi(fees)) : null;
    const wantsOwner = dto.isOwner === true;
    if (wantsOwner && (await this.repo.findDefault(tenantId))) {
      throw LinkErrors.error('invalid_link', 'This tenant already has its own merchant (isOwner); add this one as a partner');
    }
    const m = await this.repo.insert({
      id: `mer_${randomBytes(8).toString('hex')}`,
      tenantId,
      name: dto.name,
      taxId: dto.taxId ?? null,
      isDefault: wantsOwner,
      feeTable,
      source: 'ADMIN',
    });
    return this.toDto(m);
  }

  toDto(m: Merchant): MerchantDto {
    return {
      merchantId: m.id,
      name: m.name,
      taxId: m.taxId,
      isOwner: m.isDefault,
      fees: feeTableToApi(this.feeTable(m)),
      source: m.source,
      createdAt: new Date(m.createdAt).toISOString(),
    };
  }

  private async ensureSeeded(tenantId: string): Promise<void> {
    if (!this.config.sandbox) return;
    if (await this.repo.findDefault(tenantId)) return;
    await this.repo.insertMissing(
      SANDBOX_MERCHANTS.map((s, i) => ({
        id: `mer_${createHash('sha256').update(`${tenantId}:${i}`).digest('hex').slice(0, 16)}`,
        tenantId,
        name: s.name,
        taxId: s.taxId,
        isDefault: s.isDefault,
        feeTable: null,
        source: 'SANDBOX' as const,
      })),
    );
  }
}
